import { type Kysely, sql } from 'kysely'

/**
 * `users.password_hash` becomes nullable: an invited person may make their account with a passkey
 * and no password (issue 29, docs/account.md), and null says "no password", which no sign-in with
 * a password can match. SQLite cannot drop a NOT NULL, so the column is replaced as 0055 replaced
 * `locale`, the same way on both databases: a nullable column takes the values, the old one is
 * dropped, and the new one takes its name. Every existing account keeps its password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('optional_password_hash', 'text').execute()
  await sql`update users set optional_password_hash = password_hash`.execute(db)
  await db.schema.alterTable('users').dropColumn('password_hash').execute()
  await db.schema.alterTable('users').renameColumn('optional_password_hash', 'password_hash').execute()
}

/**
 * Back to a password for every account: refused while an account has none, since no hash can be
 * made up for it here and an account nobody can sign in to is not a rollback anyone wants. Give
 * each a password first (a reset link sets one).
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from users where password_hash is null`.execute(db)
  const passwordless = Number(rows[0]?.count ?? 0)
  if (passwordless > 0) throw new Error(`${passwordless} account(s) have no password (they sign in with a passkey); set a password for each before undoing migration 0060`)
  await db.schema
    .alterTable('users')
    .addColumn('required_password_hash', 'text', (col) => col.notNull().defaultTo(''))
    .execute()
  await sql`update users set required_password_hash = password_hash`.execute(db)
  await db.schema.alterTable('users').dropColumn('password_hash').execute()
  await db.schema.alterTable('users').renameColumn('required_password_hash', 'password_hash').execute()
}
