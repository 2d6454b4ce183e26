import type { Kysely } from 'kysely'

/**
 * The task manager's browser sessions (docs/task-manager.md, "Pages"): the `tasks-session` cookie
 * carries a random token, kept here only as its SHA-256. `hub_sid` is the hub's OpenID Connect
 * session id from the ID token, which a back-channel logout names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tasks_sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('hub_sid', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('tasks_sessions_user_id').on('tasks_sessions').column('user_id').execute()
  await db.schema.createIndex('tasks_sessions_hub_sid').on('tasks_sessions').column('hub_sid').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tasks_sessions').execute()
}
