import type { ErasureStep } from '../../kernel/records/erasure.js'

/**
 * Stripe's own records stay with Stripe; the hub's copies go. The subscription is canceled at
 * Stripe before erasure starts (`cancelStripeSubscriptionOf`, docs/billing.md), and the group its
 * payment covered (the household plan) loses the plan with its row here.
 */
export const billingErasure = { tables: ['billingSubscriptions', 'billingCustomers', 'billingInvoices', 'billingGroupPlans'] } as const satisfies ErasureStep
