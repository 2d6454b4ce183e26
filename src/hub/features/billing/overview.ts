import type { SubscriptionStatus } from './entitlements.js'
import type { Invoices, PaidInvoice } from './invoices.js'
import type { PlanInterval } from './plans.js'
import type { Subscriptions } from './subscriptions.js'

/** What `GET /api/billing` answers and the billing page shows (docs/billing.md). */
export interface BillingOverview {
  /** The plan in effect: the one the entitlements come from, never a paid plan that no longer grants anything. */
  plan: { id: string; name: string; price: number | null; currency: string | null; interval: PlanInterval | null }
  status: SubscriptionStatus
  entitlements: string[]
  currentPeriodEnd: string | null
  cancelAtPeriodEnd: boolean
  /** The latest paid invoices, newest first, at most INVOICES_SHOWN. */
  invoices: PaidInvoice[]
}

export type BillingOverviewOf = (userId: string) => Promise<BillingOverview>

/** One account's billing, read with the same rule as the tokens' claims, as of `now()`. */
export function billingOverview(subscriptions: Pick<Subscriptions, 'accountPlan'>, invoices: Pick<Invoices, 'paidOf'>, now: () => Date): BillingOverviewOf {
  return async (userId) => {
    const [account, paid] = await Promise.all([subscriptions.accountPlan(userId, now()), invoices.paidOf(userId)])
    const { id, name, price, currency, interval } = account.plan
    return {
      plan: { id, name, price, currency, interval },
      status: account.status,
      entitlements: account.entitlements,
      currentPeriodEnd: account.currentPeriodEnd,
      cancelAtPeriodEnd: account.cancelAtPeriodEnd,
      invoices: paid
    }
  }
}
