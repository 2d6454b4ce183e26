import type { EntitlementSource, SubscriptionStatus } from './entitlements.js'
import type { GroupPlanSource, GroupPlans } from './group-plans.js'
import type { Invoices, PaidInvoice } from './invoices.js'
import type { PlanInterval } from './plans.js'
import type { Subscriptions } from './subscriptions.js'

/** What `GET /api/billing` answers and the billing page shows (docs/billing.md). */
export interface BillingOverview {
  /** The person's own plan in effect, never a paid plan that no longer grants anything. */
  plan: { id: string; name: string; price: number | null; currency: string | null; interval: PlanInterval | null }
  status: SubscriptionStatus
  /** The union of the own plan's and the groups' plans' entitlements: what the tokens carry. */
  entitlements: string[]
  /** Each grant of each entitlement: the own plan's, or a group's. */
  entitlementSources: EntitlementSource[]
  /** The person's groups' plans in effect, by group name (the household plan). */
  groupPlans: { group: { id: string; name: string }; plan: { id: string; name: string }; source: GroupPlanSource; until: string | null }[]
  /** The group the person's own subscription pays for, if any. */
  household: { group: { id: string; name: string } } | null
  currentPeriodEnd: string | null
  cancelAtPeriodEnd: boolean
  /** The latest paid invoices, newest first, at most INVOICES_SHOWN. */
  invoices: PaidInvoice[]
}

export type BillingOverviewOf = (userId: string) => Promise<BillingOverview>

/** One account's billing, read with the same rule as the tokens' claims, as of `now()`. */
export function billingOverview(
  subscriptions: Pick<Subscriptions, 'householdPlan'>,
  groupPlans: Pick<GroupPlans, 'paidBy'>,
  invoices: Pick<Invoices, 'paidOf'>,
  now: () => Date
): BillingOverviewOf {
  return async (userId) => {
    const [household, paidFor, paid] = await Promise.all([subscriptions.householdPlan(userId, now()), groupPlans.paidBy(userId), invoices.paidOf(userId)])
    const account = household.own
    const { id, name, price, currency, interval } = account.plan
    return {
      plan: { id, name, price, currency, interval },
      status: account.status,
      entitlements: household.entitlements.entitlements,
      entitlementSources: household.sources,
      groupPlans: household.groups.map(({ group, plan, source, until }) => ({ group, plan: { id: plan.id, name: plan.name }, source, until })),
      household: paidFor ? { group: paidFor } : null,
      currentPeriodEnd: account.currentPeriodEnd,
      cancelAtPeriodEnd: account.cancelAtPeriodEnd,
      invoices: paid
    }
  }
}
