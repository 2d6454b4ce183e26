import type { Kysely } from 'kysely'
import type { Plan } from '../../src/hub/features/billing/plans.js'
import type { Database } from '../../src/shared/database/schema.js'

/** A plan only set by hand (no price, nothing Stripe sells). */
export const FAMILY_PLAN: Plan = { id: 'family', name: 'Family', price: null, currency: null, interval: null, stripePriceId: null, entitlements: ['shared-lists', 'exports'] }
/** A plan Stripe sells, monthly. */
export const PRO_PLAN: Plan = { id: 'pro', name: 'Pro', price: 1200, currency: 'EUR', interval: 'month', stripePriceId: 'price_pro', entitlements: ['tasks-unlimited'] }
/** Another plan Stripe sells, yearly. */
export const TEAM_PLAN: Plan = { id: 'team', name: 'Team', price: 9900, currency: 'EUR', interval: 'year', stripePriceId: 'price_team', entitlements: ['tasks-unlimited', 'shared-lists'] }

/** Stripe configured, its client pointed at a port nothing listens on: the page needs no call to it. */
export const UNREACHABLE_STRIPE = { secretKey: 'sk_test_x', webhookSecret: 'whsec_x', apiUrl: new URL('http://127.0.0.1:9') }

/** An invoice as the webhook stores it (paid, Stripe's hosted page), straight into the table. */
export function insertInvoice(
  db: Kysely<Database>,
  userId: string,
  id: string,
  paidAt: Date,
  overrides: Partial<{ status: 'paid' | 'failed'; amount: number; currency: string; url: string | null }> = {}
) {
  const at = paidAt.toISOString()
  return db
    .insertInto('billingInvoices')
    .values({ id, userId, amount: 1200, currency: 'eur', status: 'paid', paidAt: at, url: `https://invoice.stripe.com/i/${id}`, createdAt: at, ...overrides })
    .execute()
}
