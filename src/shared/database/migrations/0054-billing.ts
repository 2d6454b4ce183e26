import { type Kysely, sql } from 'kysely'

/**
 * Billing (docs/billing.md): the operator's plans, one subscription per account, the Stripe
 * customer each account pays as, the invoices Stripe reported, and the webhook events already
 * applied (each is applied once). Hearth never holds card data: Stripe does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_plans')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    // In the currency's smallest unit (cents); null with currency and interval for a plan set by hand only.
    .addColumn('price', 'integer')
    .addColumn('currency', 'text')
    .addColumn('interval', 'text')
    .addColumn('stripe_price_id', 'text', (col) => col.unique())
    // JSON array of entitlement names.
    .addColumn('entitlements', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  // Every account's plan until another is set: it always exists and grants nothing.
  await sql`insert into billing_plans (id, name, price, currency, interval, stripe_price_id, entitlements, created_at)
    values ('free', 'Free', 0, null, null, null, '[]', ${new Date().toISOString()})`.execute(db)

  await db.schema
    .createTable('billing_subscriptions')
    .addColumn('user_id', 'text', (col) => col.primaryKey())
    .addColumn('plan_id', 'text', (col) => col.notNull())
    // active, trialing, past_due or canceled.
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('current_period_end', 'text')
    .addColumn('cancel_at_period_end', 'integer', (col) => col.notNull())
    // When the status became past_due: the grace period counts from here.
    .addColumn('past_due_since', 'text')
    // Null for a subscription set by hand (billing:set).
    .addColumn('stripe_subscription_id', 'text')
    // When Stripe made the state last applied (its event's `created`): an older event never moves it back.
    .addColumn('stripe_state_at', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('billing_subscriptions_stripe_id').on('billing_subscriptions').column('stripe_subscription_id').execute()

  await db.schema
    .createTable('billing_customers')
    .addColumn('user_id', 'text', (col) => col.primaryKey())
    .addColumn('stripe_customer_id', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('billing_invoices')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    // paid or failed.
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('paid_at', 'text')
    // Stripe's hosted invoice page.
    .addColumn('url', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('billing_invoices_user_id').on('billing_invoices').columns(['user_id', 'created_at']).execute()

  await db.schema
    .createTable('billing_webhook_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('received_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('billing_webhook_events_received_at').on('billing_webhook_events').column('received_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['billing_webhook_events', 'billing_invoices', 'billing_customers', 'billing_subscriptions', 'billing_plans']) {
    await db.schema.dropTable(table).execute()
  }
}
