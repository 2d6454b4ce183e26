import type { Kysely } from 'kysely'

/**
 * Two-step sign-in with an authenticator app (issue 18): one TOTP credential per account, pending
 * until its first code is confirmed, and the account's single-use recovery codes. No foreign keys
 * to users, as with sessions: the rows go with the account's deletion, not with its row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('totp_credentials')
    .addColumn('user_id', 'text', (col) => col.primaryKey())
    // AES-256-GCM of the secret under the hub's encryption key: never the secret itself.
    .addColumn('secret_ciphertext', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    // Null while pending: sign-in asks for a code only once a code has been confirmed.
    .addColumn('confirmed_at', 'text')
    // The newest 30-second step a code was accepted for: no code of it or before is accepted again.
    .addColumn('last_used_step', 'integer')
    .execute()

  await db.schema
    .createTable('recovery_codes')
    // SHA-256 of the normalised code, hex; a used code's row is deleted.
    .addColumn('code_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recovery_codes').execute()
  await db.schema.dropTable('totp_credentials').execute()
}
