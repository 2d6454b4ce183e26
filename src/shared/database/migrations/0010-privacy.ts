import type { Kysely } from 'kysely'

/** Privacy settings (one document per user), the append-only consent log, and the audit trail. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('privacy_settings')
    .addColumn('user_id', 'text', (col) => col.primaryKey())
    .addColumn('document', 'text', (col) => col.notNull())
    // Copied out of the document so pruning the audit trail can group users by retention in SQL.
    .addColumn('activity_log_days', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('consents')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('purpose', 'text', (col) => col.notNull())
    // 0 or 1: one representation that both SQLite and PostgreSQL bind the same way.
    .addColumn('granted', 'integer', (col) => col.notNull())
    .addColumn('version', 'text')
    .addColumn('recorded_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('consents_user_recorded').on('consents').columns(['user_id', 'recorded_at', 'id']).execute()

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('detail', 'text', (col) => col.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('audit_events_user_created').on('audit_events').columns(['user_id', 'created_at']).execute()
  await db.schema.createIndex('audit_events_created').on('audit_events').column('created_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute()
  await db.schema.dropTable('consents').execute()
  await db.schema.dropTable('privacy_settings').execute()
}
