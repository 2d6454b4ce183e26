import type { Kysely } from 'kysely'

/** Shared by every application of the family: one grant per user and application. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_grants')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('application_id', 'text', (col) => col.notNull())
    .addColumn('roles', 'text', (col) => col.notNull())
    .addColumn('permissions', 'text', (col) => col.notNull())
    .addColumn('granted_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('access_grants_user_application', ['user_id', 'application_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('access_grants').execute()
}
