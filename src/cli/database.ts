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
  const { db } = openDatabase(config)
  try {
    await migrateToLatest(db)
    return await work(db)
  } finally {
    await db.destroy()
  }
}
