import type { Kysely } from 'kysely'

/**
 * The household's administrator (issue 29): an account's role, groups and their members, the
 * invitations an administrator sends, and the one-time set-up link a fresh hub prints while it has
 * no administrator. Invitation and set-up tokens are kept only as their SHA-256.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // `member` or `admin`; every account before this one is a member.
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (col) => col.notNull().defaultTo('member'))
    .execute()
  await db.schema.createIndex('users_role_idx').on('users').column('role').execute()

  await db.schema
    .createTable('groups')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    // The name in lower case: names are unique whatever their case.
    .addColumn('name_key', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'text', (col) => col.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('added_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    .execute()
  await db.schema.createIndex('group_members_user_idx').on('group_members').column('user_id').execute()

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // Normalised, as accounts' addresses are.
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    // JSON array of group ids the invited person joins.
    .addColumn('group_ids', 'text', (col) => col.notNull())
    // The administrator's user id, or null when sent from the terminal.
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    // Set once, when the invitation is used or withdrawn: either ends it.
    .addColumn('used_at', 'text')
    .addColumn('withdrawn_at', 'text')
    .execute()
  await db.schema.createIndex('invitations_email_idx').on('invitations').column('email').execute()

  await db.schema
    .createTable('setup_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('setup_tokens').execute()
  await db.schema.dropTable('invitations').execute()
  await db.schema.dropTable('group_members').execute()
  await db.schema.dropTable('groups').execute()
  await db.schema.dropIndex('users_role_idx').execute()
  await db.schema.alterTable('users').dropColumn('role').execute()
}
