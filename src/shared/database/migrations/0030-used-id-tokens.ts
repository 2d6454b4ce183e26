import type { Kysely } from 'kysely'

/**
 * ID tokens already exchanged for a session at set-cookie, so each is used once. A row is needed
 * only while its token could still verify; expired rows are pruned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('used_id_tokens')
    // A hash of the token's jti (or of its claims, for a provider that sets none): the uniqueness decides who used it first.
    .addColumn('replay_key', 'text', (col) => col.primaryKey())
    .addColumn('accepted_until', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('used_id_tokens_accepted_until').on('used_id_tokens').column('accepted_until').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('used_id_tokens').execute()
}
