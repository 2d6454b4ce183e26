import { type Kysely, sql } from 'kysely'

/**
 * What real applications need of their OpenID Connect client (issue 30): the algorithm their ID
 * tokens are signed with, whether a confidential client must use PKCE, how it authenticates at the
 * token endpoint, and a logo for the pages that name it. Every client registered before keeps what
 * it had: EdDSA, PKCE required, HTTP Basic for a confidential client and none for a public one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oidc_clients')
    .addColumn('id_token_alg', 'text', (col) => col.notNull().defaultTo('EdDSA'))
    .execute()
  await db.schema
    .alterTable('oidc_clients')
    .addColumn('pkce', 'text', (col) => col.notNull().defaultTo('required'))
    .execute()
  await db.schema
    .alterTable('oidc_clients')
    .addColumn('auth_method', 'text', (col) => col.notNull().defaultTo('client_secret_basic'))
    .execute()
  await sql`update oidc_clients set auth_method = 'none' where secret_hash is null`.execute(db)
  await db.schema.alterTable('oidc_clients').addColumn('logo_url', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['logo_url', 'auth_method', 'pkce', 'id_token_alg']) {
    await db.schema.alterTable('oidc_clients').dropColumn(column).execute()
  }
}
