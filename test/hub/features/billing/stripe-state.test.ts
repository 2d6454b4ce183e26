import { describe, expect, it } from 'vitest'
import { formatAmount } from '../../../../src/hub/features/billing/amount.js'
import { formatMoney } from '../../../../src/hub/features/billing/views/billing.js'
import { type StoredStripeState, type StripeSubscriptionState, pastDueSinceOf, statusOfStripe, whyNotApplied } from '../../../../src/hub/features/billing/stripe-state.js'

const incoming: StripeSubscriptionState = { subscriptionId: 'sub_1', planId: 'pro', status: 'active', currentPeriodEnd: '2030-02-01T00:00:00.000Z', cancelAtPeriodEnd: false, stateAt: '2030-01-01T00:00:10.000Z' }
const stored: StoredStripeState = { subscriptionId: 'sub_1', planId: 'pro', status: 'active', currentPeriodEnd: '2030-02-01T00:00:00.000Z', pastDueSince: null, stateAt: '2030-01-01T00:00:00.000Z' }

describe('reading Stripe subscriptions', () => {
  it("maps Stripe's statuses to Hearth's four, incomplete to none yet", () => {
    const mapped = Object.fromEntries(['active', 'trialing', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused'].map((status) => [status, statusOfStripe(status)]))
    expect(mapped).toEqual({ active: 'active', trialing: 'trialing', past_due: 'past_due', canceled: 'canceled', unpaid: 'past_due', incomplete: undefined, incomplete_expired: 'canceled', paused: 'canceled' })
  })

  it('applies a newer state, and says why an older or backward one is not', () => {
    expect(whyNotApplied(undefined, incoming)).toBeUndefined()
    expect(whyNotApplied(stored, incoming)).toBeUndefined()
    // A plan set by hand has no Stripe time: the first Stripe state replaces it.
    expect(whyNotApplied({ ...stored, subscriptionId: null, stateAt: null }, incoming)).toBeUndefined()
    expect(whyNotApplied({ ...stored, stateAt: '2030-01-01T00:00:11.000Z' }, incoming)).toBe('older than the state already applied')
    expect(whyNotApplied({ ...stored, status: 'canceled' }, incoming)).toBe('the subscription has ended already')
    expect(whyNotApplied({ ...stored, currentPeriodEnd: '2030-03-01T00:00:00.000Z' }, incoming)).toBe('a period earlier than the one stored')
    expect(whyNotApplied({ ...stored, subscriptionId: 'sub_0' }, { ...incoming, status: 'canceled' })).toBe('another subscription is the account’s')
    expect(whyNotApplied({ ...stored, subscriptionId: 'sub_0', status: 'canceled' }, incoming)).toBeUndefined()
  })

  it('keeps the start of a past-due spell while it lasts, and clears it after', () => {
    const pastDue = { ...incoming, status: 'past_due' as const }
    expect(pastDueSinceOf(stored, pastDue)).toBe(pastDue.stateAt)
    expect(pastDueSinceOf({ ...stored, status: 'past_due', pastDueSince: '2029-12-30T00:00:00.000Z' }, pastDue)).toBe('2029-12-30T00:00:00.000Z')
    expect(pastDueSinceOf({ ...stored, subscriptionId: 'sub_0', status: 'past_due', pastDueSince: '2029-12-30T00:00:00.000Z' }, pastDue)).toBe(pastDue.stateAt)
    expect(pastDueSinceOf({ ...stored, status: 'past_due', pastDueSince: '2029-12-30T00:00:00.000Z' }, incoming)).toBeNull()
  })

  it('shows amounts in the currency’s units', () => {
    expect(formatAmount(1200, 'eur')).toBe('12.00 EUR')
    expect(formatAmount(1200, 'JPY')).toBe('1200 JPY')
    // Stripe counts ISK in hundredths though ISO gives it no decimals: its list decides, here and on the page.
    expect(formatAmount(150000, 'isk')).toBe('1500.00 ISK')
    expect(formatMoney(150000, 'isk', 'en')).toBe('ISK\u00a01,500')
    expect(formatMoney(1200, 'jpy', 'en')).toBe('¥1,200')
    expect(formatMoney(1200, 'eur', 'en')).toBe('€12.00')
  })
})
