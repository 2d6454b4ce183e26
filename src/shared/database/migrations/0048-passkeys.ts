import type { Kysely } from 'kysely'

/**
 * Passkeys (issue 18): each WebAuthn credential a person registered, and the challenges handed out
 * for registering or using one. Challenges live in the database, not in one process, so a ceremony
 * begun on one instance finishes on any, and a challenge is used once across all of them.
 * No foreign keys to users, as with sessions: deleting an account deletes its rows itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    // base64url, as the browser names it in an assertion: the lookup at sign-in.
    .addColumn('credential_id', 'text', (col) => col.notNull().unique())
    // The COSE public key, base64url.
    .addColumn('public_key', 'text', (col) => col.notNull())
    // The authenticator's signature counter, an unsigned 32-bit number: past PostgreSQL's integer.
    .addColumn('sign_count', 'bigint', (col) => col.notNull())
    // JSON array of the transports the browser reported, handed back in excludeCredentials.
    .addColumn('transports', 'text', (col) => col.notNull())
    .addColumn('aaguid', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text')
    .execute()
  await db.schema.createIndex('passkeys_user_id').on('passkeys').column('user_id').execute()

  await db.schema
    .createTable('passkey_challenges')
    // SHA-256 of the challenge, base64url: the challenge itself is never stored.
    .addColumn('challenge_hash', 'text', (col) => col.primaryKey())
    .addColumn('purpose', 'text', (col) => col.notNull())
    // For a registration: the account and the session (by its handle) that asked for it.
    .addColumn('user_id', 'text')
    .addColumn('session_handle', 'text')
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('passkey_challenges_expires_at').on('passkey_challenges').column('expires_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute()
  await db.schema.dropTable('passkeys').execute()
}
