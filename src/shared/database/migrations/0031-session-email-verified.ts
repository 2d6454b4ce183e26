import type { Kysely } from 'kysely'

/**
 * Whether the identity provider had verified the session's email when it began, so SSO tokens can
 * say so. Sessions begun before this migration never claimed it: false is the truthful default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('email_verified', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('email_verified').execute()
}
