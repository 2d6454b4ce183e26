import type { Kysely } from 'kysely'

/**
 * The devices each account has signed in from (issue 18's new-device notice): the coarse name a
 * user agent gives ("Chrome on Linux"), never the user agent itself or an IP. A few per account,
 * the most recently used (src/hub/kernel/sessions/known-devices.ts). No foreign key, as with sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('known_devices')
    .addColumn('user_id', 'text', (col) => col.notNull())
    // Empty for a user agent that names neither a browser nor a system.
    .addColumn('device', 'text', (col) => col.notNull())
    .addColumn('first_seen_at', 'text', (col) => col.notNull())
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('known_devices_pkey', ['user_id', 'device'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('known_devices').execute()
}
