import type { Kysely } from 'kysely'

/**
 * When the session's holder last proved who they are (sign-in, second factor or reauthentication),
 * for the changes that need a recent sign-in (docs/security-settings.md). Sessions begun before
 * this migration have no proof on record: null, so a sensitive change asks for one first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('authenticated_at', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('authenticated_at').execute()
}
