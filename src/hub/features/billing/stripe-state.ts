import type { SubscriptionStatus } from './entitlements.js'

/**
 * The rules that read Stripe's subscriptions as Hearth's (docs/billing.md, "With Stripe"): how a
 * status maps, and when an event's state must not replace the stored one. Pure, so each rule is
 * stated once and the webhook only applies what they decide.
 */

/** A subscription's state as an event carries it, read into Hearth's terms. */
export interface StripeSubscriptionState {
  subscriptionId: string
  planId: string
  status: SubscriptionStatus
  currentPeriodEnd: string | null
  cancelAtPeriodEnd: boolean
  /** When Stripe made this state: its event's `created`. */
  stateAt: string
}

/** What is stored of an account's subscription, as far as ordering needs it. */
export interface StoredStripeState {
  /** Null for a plan set by hand. */
  subscriptionId: string | null
  planId: string
  status: SubscriptionStatus
  currentPeriodEnd: string | null
  pastDueSince: string | null
  stateAt: string | null
}

/**
 * Stripe's status in Hearth's four; undefined for `incomplete`, a subscription whose first payment
 * has not gone through yet: it is no subscription until it becomes active (or expires).
 */
export function statusOfStripe(status: string): SubscriptionStatus | undefined {
  switch (status) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'canceled':
      return status
    // Stripe has given up retrying but keeps the subscription: still unpaid, so past due (and its grace).
    case 'unpaid':
      return 'past_due'
    case 'incomplete':
      return undefined
    // Never paid, or paused for want of a payment method: nothing is paid for.
    case 'incomplete_expired':
    case 'paused':
    default:
      return 'canceled'
  }
}

/**
 * Why an incoming state must not be applied over the stored one, or undefined when it may. Events
 * arrive late, twice and out of order; none moves a subscription back.
 */
export function whyNotApplied(stored: StoredStripeState | undefined, incoming: StripeSubscriptionState): string | undefined {
  if (!stored) return undefined
  if (stored.stateAt !== null && incoming.stateAt < stored.stateAt) return 'older than the state already applied'
  if (stored.subscriptionId === incoming.subscriptionId) {
    // Stripe never revives a canceled subscription: whatever follows the end is an old state.
    if (stored.status === 'canceled') return 'the subscription has ended already'
    if (stored.currentPeriodEnd !== null && incoming.currentPeriodEnd !== null && incoming.currentPeriodEnd < stored.currentPeriodEnd) {
      return 'a period earlier than the one stored'
    }
    return undefined
  }
  // The end of another subscription (a second checkout's, one abandoned) takes nothing from the
  // subscription or the plan by hand the account has now.
  if (incoming.status === 'canceled' && stored.status !== 'canceled') return 'another subscription is the account’s'
  return undefined
}

/** Since when the account is past due: kept while it stays so, from this state's time when it becomes so. */
export function pastDueSinceOf(stored: StoredStripeState | undefined, incoming: Pick<StripeSubscriptionState, 'subscriptionId' | 'status' | 'stateAt'>): string | null {
  if (incoming.status !== 'past_due') return null
  const stillPastDue = stored?.subscriptionId === incoming.subscriptionId && stored.status === 'past_due' && stored.pastDueSince !== null
  return stillPastDue ? stored.pastDueSince : incoming.stateAt
}
