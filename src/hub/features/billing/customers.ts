import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import type { Database } from '../../../shared/database/schema.js'

export type BillingCustomers = ReturnType<typeof createBillingCustomers>

/** Which Stripe customer each account pays as: one per account, kept for good (erased with it). */
export function createBillingCustomers(db: Kysely<Database>) {
  return {
    async customerOf(userId: string): Promise<string | undefined> {
      const row = await db.selectFrom('billingCustomers').select('stripeCustomerId').where('userId', '=', userId).executeTakeFirst()
      return row?.stripeCustomerId
    },

    async accountOf(stripeCustomerId: string): Promise<string | undefined> {
      const row = await db.selectFrom('billingCustomers').select('userId').where('stripeCustomerId', '=', stripeCustomerId).executeTakeFirst()
      return row?.userId
    },

    /** Links them unless the account or the customer is linked already: the first link stands. */
    async link(userId: string, stripeCustomerId: string, now: Date): Promise<void> {
      await db
        .insertInto('billingCustomers')
        .values({ userId, stripeCustomerId, createdAt: now.toISOString() })
        .onConflict((conflict) => conflict.doNothing())
        .execute()
    }
  }
}

/** Stripe keeps an idempotency key 24 hours: two checkouts at once within them create one customer. */
export function customerIdempotencyKey(userId: string): string {
  return `hearth-customer-${userId}`
}

/**
 * The account's Stripe customer, created on its first checkout. The idempotency key comes from
 * the account, so two checkouts started at once get the same customer back from Stripe rather
 * than two, and both link that one.
 */
export async function customerFor(stripe: Stripe, customers: BillingCustomers, account: { userId: string; email: string }, now: Date): Promise<string> {
  const known = await customers.customerOf(account.userId)
  if (known) return known
  const customer = await stripe.customers.create(
    // An external provider may give no address: Stripe's Checkout then asks for one.
    { ...(account.email === '' ? {} : { email: account.email }), metadata: { userId: account.userId } },
    { idempotencyKey: customerIdempotencyKey(account.userId) }
  )
  await customers.link(account.userId, customer.id, now)
  return (await customers.customerOf(account.userId)) ?? customer.id
}
