import type { Kysely } from 'kysely'

/**
 * Which hub session an OpenID Connect provider session was signed in with (docs/oidc.md, "Sessions:
 * both ways"): when that hub session ends, however it ends, the provider session ends too and the
 * applications that took part in it are sent back-channel logouts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_provider_records').addColumn('hub_session_id', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_provider_records').dropColumn('hub_session_id').execute()
}
