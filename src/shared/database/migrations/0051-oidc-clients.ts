import type { Kysely } from 'kysely'

/**
 * The applications registered to sign in with the hub over OpenID Connect (`npm run hub --
 * clients:add`). A confidential client's secret is kept only as its SHA-256.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_clients')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    // Null for a public client (no secret: PKCE is its proof).
    .addColumn('secret_hash', 'text')
    // JSON arrays of URLs.
    .addColumn('redirect_uris', 'text', (col) => col.notNull())
    .addColumn('post_logout_redirect_uris', 'text', (col) => col.notNull())
    .addColumn('backchannel_logout_uri', 'text')
    // 0 or 1: the family's own application, which is not asked for consent.
    .addColumn('first_party', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_clients').execute()
}
