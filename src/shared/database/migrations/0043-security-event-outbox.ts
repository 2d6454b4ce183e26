import type { Kysely } from 'kysely'

/**
 * The hub's outbox of security events (RFC 8417) for its applications (docs/security-events.md):
 * a row is written in the transaction of the change it reports and deleted once the application
 * has answered 202. Its id is the event's `jti`. No foreign key to users: an `account-purged`
 * event must outlive the account it reports.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('security_event_outbox')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('application_id', 'text', (col) => col.notNull())
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    // When the sender may next take the event: its retry time, or the end of a sender's claim on it.
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .execute()
  await db.schema.createIndex('security_event_outbox_due').on('security_event_outbox').column('next_attempt_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('security_event_outbox').execute()
}
