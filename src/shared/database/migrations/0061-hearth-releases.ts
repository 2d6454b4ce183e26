import type { Kysely } from 'kysely'

/**
 * Which Hearth versions migrated this database, and to which migration: each version adds its row
 * once it finds every migration it knows applied (`recordRelease` in migrate.ts). An older version
 * started on a database a newer one migrated reads here whom to name when it refuses to start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hearth_releases')
    .addColumn('version', 'text', (col) => col.notNull())
    // The newest migration that version knows, hence the schema it left.
    .addColumn('last_migration', 'text', (col) => col.notNull())
    .addColumn('migrated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('hearth_releases_pkey', ['version', 'last_migration'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('hearth_releases').execute()
}
