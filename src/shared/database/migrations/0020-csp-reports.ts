import type { Kysely } from 'kysely'

/** The hub's CSP violation reports: one row per distinct violation, counted. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('csp_reports')
    // A hash of what makes two reports the same violation; the upsert's conflict target.
    .addColumn('fingerprint', 'text', (col) => col.primaryKey())
    .addColumn('document_uri', 'text', (col) => col.notNull())
    .addColumn('directive', 'text', (col) => col.notNull())
    .addColumn('blocked_uri', 'text')
    .addColumn('source_file', 'text')
    .addColumn('line_number', 'integer')
    .addColumn('user_agent', 'text')
    .addColumn('count', 'integer', (col) => col.notNull())
    .addColumn('first_seen', 'text', (col) => col.notNull())
    .addColumn('last_seen', 'text', (col) => col.notNull())
    .execute()
  // Finds the oldest rows to drop once the table is past its cap.
  await db.schema.createIndex('csp_reports_last_seen').on('csp_reports').columns(['last_seen', 'fingerprint']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('csp_reports').execute()
}
