import type { Kysely } from 'kysely'

/**
 * Applications limited to groups (issue 30, docs/oidc.md "Who may use an application"):
 * `oidc_clients.allowed_groups`, a JSON array of group ids, `[]` for a client everyone may use.
 * Ids, not names, so renaming a group keeps the limit; a deleted group's id stays and admits
 * nobody, so deleting the last group a client was limited to closes it rather than opening it to
 * everyone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oidc_clients')
    .addColumn('allowed_groups', 'text', (col) => col.notNull().defaultTo('[]'))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_clients').dropColumn('allowed_groups').execute()
}
