import type { Kysely } from 'kysely'
import type { SharedConfig } from '../shared/config.js'
import { openDatabase } from '../shared/database/connect.js'
import { migrateToLatest } from '../shared/database/migrate.js'
import type { Database } from '../shared/database/schema.js'

/**
 * Runs one command's work on the configured database, migrated first (a command may be the first
 * thing run on a new install), and closes it whatever happens, so the process can exit.
 */
export async function withDatabase<T>(config: SharedConfig, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return withUnmigratedDatabase(config, async (db) => {
    await migrateToLatest(db)
    return work(db)
  })
}

/** The configured database as it is, for a command that reports on its migrations; closed whatever happens. */
export async function withUnmigratedDatabase<T>(config: SharedConfig, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const { db } = openDatabase(config)
  try {
    return await work(db)
  } finally {
    await db.destroy()
  }
}
