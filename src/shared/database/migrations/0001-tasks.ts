import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('assignee', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
  // Serves the newest-first keyset page of one user's tasks, with and without a status filter.
  await db.schema.createIndex('tasks_assignee_created').on('tasks').columns(['assignee', 'created_at', 'id']).execute()
  await db.schema
    .createIndex('tasks_assignee_status_created')
    .on('tasks')
    .columns(['assignee', 'status', 'created_at', 'id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tasks').execute()
}
