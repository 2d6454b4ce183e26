import type { Kysely } from 'kysely'

/**
 * The household plan (docs/billing.md, "The household plan"): at most one plan per group, set by
 * hand or paid by an administrator's Stripe subscription, whose entitlements every member has.
 * Deleting the group deletes its plan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_group_plans')
    .addColumn('group_id', 'text', (col) => col.primaryKey().references('groups.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (col) => col.notNull())
    // by-hand or subscription.
    .addColumn('source', 'text', (col) => col.notNull())
    // The administrator whose subscription pays for it; null for a plan set by hand.
    .addColumn('user_id', 'text')
    .addColumn('stripe_subscription_id', 'text')
    // When a plan set by hand ends; null for good (a subscription's ends with the subscription).
    .addColumn('until', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('billing_group_plans_user_id').on('billing_group_plans').column('user_id').execute()
  await db.schema.createIndex('billing_group_plans_stripe_id').on('billing_group_plans').column('stripe_subscription_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('billing_group_plans').execute()
}
