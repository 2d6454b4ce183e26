import type { Kysely } from 'kysely'

/**
 * A password step of a login still waiting for its second factor. Kept in the database, so the
 * second step may reach any instance; the challenge itself is only ever stored as its hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_challenges')
    // SHA-256 of the challenge, hex.
    .addColumn('challenge_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    // SHA-256 of the password hash the step was checked against: a password changed since voids it.
    .addColumn('password_fingerprint', 'text', (col) => col.notNull())
    // Second-factor attempts made on it, counted before each is checked: at most five.
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('login_challenges_user').on('login_challenges').column('user_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_challenges').execute()
}
