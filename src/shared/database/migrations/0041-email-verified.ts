import type { Kysely } from 'kysely'

/**
 * Whether the built-in account's address is proven to reach its owner: set when a verification
 * link or a password-reset link (both mailed to it) is used. Accounts made before this migration
 * were never verified: false is the truthful default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('email_verified').execute()
}
