import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely'
import * as tasks from './migrations/0001-tasks.js'
import * as accessGrants from './migrations/0002-access-grants.js'
import * as hubUsers from './migrations/0003-hub-users.js'
import * as hubSessions from './migrations/0004-hub-sessions.js'
import * as privacy from './migrations/0010-privacy.js'

/** Listed in code rather than read from disk, so the build and the tests run the same set. */
const migrations: Record<string, Migration> = {
  '0001-tasks': tasks,
  '0002-access-grants': accessGrants,
  '0003-hub-users': hubUsers,
  '0004-hub-sessions': hubSessions,
  '0010-privacy': privacy
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

/**
 * Brings the schema up to date. Kysely's Migrator takes a lock (an advisory lock on PostgreSQL),
 * so instances starting together apply each migration once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Migrator works on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrationTableSchema = await postgresSchemaOf(db)
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest()
  const failed = results?.find((result) => result.status === 'Error')
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error })
  }
}

/**
 * On PostgreSQL the Migrator looks for its own tables in every schema; naming the schema in use
 * keeps a database shared by several schemas (one per test run, say) from confusing it.
 */
async function postgresSchemaOf(db: Kysely<unknown>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  return rows[0]?.schema
}
