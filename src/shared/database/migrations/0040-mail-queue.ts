import type { Kysely } from 'kysely'

/**
 * The hub's outgoing mail and the tokens its links carry. A queued mail is deleted once sent (its
 * body may hold a token); one that has failed for good is kept, marked, for the operator.
 * No foreign keys to users: as with sessions, the queue must outlive any one account's row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('text_body', 'text', (col) => col.notNull())
    .addColumn('html_body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    // When the sender may next take the mail: its retry time, or the end of a sender's claim on it.
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .execute()
  // The sender's one query: the pending mail that is due, oldest first.
  await db.schema.createIndex('mail_queue_due').on('mail_queue').columns(['status', 'next_attempt_at']).execute()

  // One row per account and purpose: issuing a token replaces the row, so only the newest is ever valid.
  await db.schema
    .createTable('mail_tokens')
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('purpose', 'text', (col) => col.notNull())
    // SHA-256 of the token, hex: the token itself is never stored.
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('mail_tokens_pkey', ['user_id', 'purpose'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_tokens').execute()
  await db.schema.dropTable('mail_queue').execute()
}
