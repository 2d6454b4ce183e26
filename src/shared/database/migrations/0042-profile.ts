import type { Kysely } from 'kysely'

/**
 * The account's profile (issue 16): a display name, unset until the person chooses one, and the
 * language its mails are written in, English for every account that existed before. And the new
 * address an email-change token was issued for, kept on the token's row so the address changes
 * only when that token is used; null for tokens of other purposes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('display_name', 'text').execute()
  await db.schema
    .alterTable('users')
    .addColumn('locale', 'text', (col) => col.notNull().defaultTo('en'))
    .execute()
  await db.schema.alterTable('mail_tokens').addColumn('new_email', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_tokens').dropColumn('new_email').execute()
  await db.schema.alterTable('users').dropColumn('locale').execute()
  await db.schema.alterTable('users').dropColumn('display_name').execute()
}
