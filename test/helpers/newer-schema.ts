import { type Kysely, sql } from 'kysely'
import type { Database } from '../../src/shared/database/schema.js'

/** A migration no build of this checkout knows, as a newer version would have applied it. */
export const FUTURE_MIGRATION = '0999-from-the-future'
export const FUTURE_VERSION = '99.0.0'

/** Makes the database look migrated by FUTURE_VERSION: its migration applied and, unless `recorded` is false, its release row. */
export async function migrateAsNewerVersion(db: Kysely<Database>, { recorded = true } = {}): Promise<void> {
  const at = new Date().toISOString()
  await sql`insert into kysely_migration (name, "timestamp") values (${FUTURE_MIGRATION}, ${at})`.execute(db)
  if (recorded) await sql`insert into hearth_releases (version, last_migration, migrated_at) values (${FUTURE_VERSION}, ${FUTURE_MIGRATION}, ${at})`.execute(db)
}

/** Undoes `migrateAsNewerVersion`. */
export async function forgetNewerVersion(db: Kysely<Database>): Promise<void> {
  await sql`delete from kysely_migration where name = ${FUTURE_MIGRATION}`.execute(db)
  await sql`delete from hearth_releases where version = ${FUTURE_VERSION}`.execute(db)
}
