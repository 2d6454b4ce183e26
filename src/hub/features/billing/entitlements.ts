import { DAY_MS } from '../../../shared/time.js'
import type { Plan } from './plans.js'
import { FREE_PLAN } from './plans.js'

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled'] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

/** A subscription as stored, with the plan it names (undefined if the operator removed it). */
export interface StoredSubscription {
  plan: Plan | undefined
  status: SubscriptionStatus
  currentPeriodEnd: string | null
  cancelAtPeriodEnd: boolean
  pastDueSince: string | null
  /** Set by hand (billing:set) rather than kept by Stripe. */
  byHand: boolean
}

/** What an account has now: the plan in effect, the subscription's state, and what it grants. */
export interface AccountPlan {
  /** The plan whose entitlements apply: the free plan once a subscription no longer grants its own. */
  plan: Plan
  status: SubscriptionStatus
  entitlements: string[]
  currentPeriodEnd: string | null
  cancelAtPeriodEnd: boolean
}

/** What applications read of an account's billing: in SSO tokens, and the OIDC `billing` scope's claims (claims.ts). */
export interface Entitlements {
  /** The id of the plan in effect. */
  plan: string
  entitlements: string[]
}

/** An account with no subscription is on the free plan, active, for good. */
export const NO_SUBSCRIPTION: AccountPlan = { plan: FREE_PLAN, status: 'active', entitlements: [], currentPeriodEnd: null, cancelAtPeriodEnd: false }

/**
 * The one rule of entitlements (docs/billing.md): the plan's while the subscription is active,
 * trialing, or past due for at most `graceDays`; otherwise the free plan's. A subscription set by
 * hand ends at its date, as a canceled one; Stripe's end when Stripe says so, since its renewal
 * may arrive a little after the period's end.
 */
export function accountPlanOf(subscription: StoredSubscription | undefined, graceDays: number, now: Date): AccountPlan {
  if (!subscription) return NO_SUBSCRIPTION
  const { plan, currentPeriodEnd, cancelAtPeriodEnd } = subscription
  const status = subscription.byHand && currentPeriodEnd !== null && Date.parse(currentPeriodEnd) <= now.getTime() ? 'canceled' : subscription.status
  const inEffect = plan !== undefined && grantsPlan(status, subscription.pastDueSince, graceDays, now)
  const planInEffect = inEffect ? plan : FREE_PLAN
  return { plan: planInEffect, status, entitlements: planInEffect.entitlements, currentPeriodEnd, cancelAtPeriodEnd }
}

function grantsPlan(status: SubscriptionStatus, pastDueSince: string | null, graceDays: number, now: Date): boolean {
  if (status === 'active' || status === 'trialing') return true
  if (status !== 'past_due') return false
  // Past due with no date recorded counts from now: the grace period is never skipped.
  const since = pastDueSince === null ? now.getTime() : Date.parse(pastDueSince)
  return now.getTime() - since < graceDays * DAY_MS
}

/** Where one entitlement comes from: the person's own plan, or a group's (GET /api/billing's `entitlementSources`). */
export interface EntitlementSource {
  entitlement: string
  from: 'own' | 'group'
  plan: string
  /** The group whose plan grants it (`from: group`). */
  group?: { id: string; name: string }
}

/** A group plan in effect, as the union reads it (group-plans.ts). */
export interface GroupGrant {
  group: { id: string; name: string }
  plan: Pick<Plan, 'id' | 'entitlements'>
}

/**
 * The household rule (docs/billing.md, "The household plan"): a member has the union of their own
 * entitlements and their groups' (own first, then each group's by group name, each once). `plan`
 * names the person's own plan when it grants one; else the first of their groups' plans, by group
 * name; else free. Every grant of each entitlement is a source.
 */
export function unionOf(own: AccountPlan, groups: readonly GroupGrant[]): Entitlements & { sources: EntitlementSource[] } {
  const sources: EntitlementSource[] = own.entitlements.map((entitlement) => ({ entitlement, from: 'own', plan: own.plan.id }))
  for (const { group, plan } of groups) {
    for (const entitlement of plan.entitlements) sources.push({ entitlement, from: 'group', plan: plan.id, group })
  }
  const plan = own.plan.id !== FREE_PLAN.id ? own.plan.id : (groups[0]?.plan.id ?? FREE_PLAN.id)
  return { plan, entitlements: [...new Set(sources.map((source) => source.entitlement))], sources }
}
