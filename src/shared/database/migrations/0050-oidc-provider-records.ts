import type { Kysely } from 'kysely'

/**
 * What the OpenID Connect provider keeps (issue 19): authorization codes, access and refresh
 * tokens, grants, sessions and interactions, one row per oidc-provider model instance, so every
 * hub instance sees the same ones. The payload is oidc-provider's own JSON; the columns beside it
 * are what it looks records up by, and whose they are, for listing and revoking.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_provider_records')
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('account_id', 'text')
    .addColumn('client_id', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('consumed_at', 'text')
    .addPrimaryKeyConstraint('oidc_provider_records_pk', ['model', 'id'])
    .execute()
  await db.schema.createIndex('oidc_provider_records_grant_id').on('oidc_provider_records').column('grant_id').execute()
  await db.schema.createIndex('oidc_provider_records_uid').on('oidc_provider_records').columns(['model', 'uid']).execute()
  await db.schema.createIndex('oidc_provider_records_user_code').on('oidc_provider_records').columns(['model', 'user_code']).execute()
  await db.schema.createIndex('oidc_provider_records_account').on('oidc_provider_records').columns(['account_id', 'model']).execute()
  await db.schema.createIndex('oidc_provider_records_expires_at').on('oidc_provider_records').column('expires_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_provider_records').execute()
}
