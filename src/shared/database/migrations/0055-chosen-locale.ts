import { type Kysely, sql } from 'kysely'

/**
 * `users.locale` becomes nullable with no default: it holds the language a person chose, and null
 * for an account made without a choice (`users:create`, an API sign-up), whose pages and mail then
 * follow the browser instead of an English nobody picked (issue 27). SQLite cannot drop a NOT NULL,
 * so the column is replaced the same way on both databases: a nullable column takes the values,
 * the old one is dropped, and the new one takes its name. Existing accounts keep their language:
 * which of them were chosen and which were the old default cannot be told apart, and keeping it
 * changes no one's language under them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('chosen_locale', 'text').execute()
  await sql`update users set chosen_locale = locale`.execute(db)
  await db.schema.alterTable('users').dropColumn('locale').execute()
  await db.schema.alterTable('users').renameColumn('chosen_locale', 'locale').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('default_locale', 'text', (col) => col.notNull().defaultTo('en'))
    .execute()
  await sql`update users set default_locale = coalesce(locale, 'en')`.execute(db)
  await db.schema.alterTable('users').dropColumn('locale').execute()
  await db.schema.alterTable('users').renameColumn('default_locale', 'locale').execute()
}
