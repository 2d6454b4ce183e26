import type { ErasureStep } from '../../kernel/records/erasure.js'

/**
 * Stripe's own records stay with Stripe; the hub's copies go. The subscription is canceled at
 * Stripe before erasure starts (`cancelStripeSubscriptionOf`, docs/billing.md).
 */
export const billingErasure = { tables: ['billingSubscriptions', 'billingCustomers', 'billingInvoices'] } as const satisfies ErasureStep
