import { type Kysely, SqliteAdapter, sql } from 'kysely'
import type { Database } from './schema.js'

/**
 * After an erasure has committed, on SQLite: copies the write-ahead log into the database file and
 * truncates the log to nothing (`wal_checkpoint(TRUNCATE)`). `secure_delete` (connect.ts) zeroes
 * erased rows in the page the delete writes, but that page goes to the log, and the database file
 * keeps the page as it was until a checkpoint; the log keeps every earlier copy of it (the rows as
 * they were inserted and updated) until it is overwritten or truncated. Afterwards neither file
 * holds what was erased, so a copy or a backup made from then on does not either.
 *
 * On PostgreSQL there is nothing to do here: deleted rows are dead tuples until VACUUM, which
 * autovacuum runs on its own schedule (docs/privacy.md, "Erased data on disk").
 *
 * Best effort: should another process be reading the file (the hub and the task manager run
 * apart on one DATA_DIR), the checkpoint waits for it up to the busy timeout, and if it is still
 * busy the next checkpoint (SQLite runs one every 1000 pages of log) copies the rest.
 */
export async function flushErasedPages(db: Kysely<Database>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db)
}
