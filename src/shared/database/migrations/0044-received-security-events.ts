import type { Kysely } from 'kysely'

/**
 * The task manager's record of the security events it has accepted, by `jti`, so that none is
 * acted on twice. It names no user; rows are dropped once their event is too old to be accepted
 * anyway (see src/tasks/security-events/received.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('received_security_events')
    .addColumn('jti', 'text', (col) => col.primaryKey())
    .addColumn('received_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('received_security_events_received').on('received_security_events').column('received_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('received_security_events').execute()
}
