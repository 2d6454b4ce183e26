import { decodeJwt } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { BAD_SIGNATURE, NOT_AN_EVENT } from '../../../../src/hub/features/billing/webhook.js'
import { mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { HUB_ORIGIN, type SignedIn, logIn, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import Stripe from 'stripe'
import { STRIPE_TEST_WEBHOOK_SECRET, signedWebhook, stripeBilling, useStripeStandIn } from '../../../helpers/stripe-stand-in.js'

const DAY_MS = 86_400_000
const PRO = { id: 'pro', name: 'Pro', price: 1200, currency: 'EUR', interval: 'month' as const, stripePriceId: 'price_pro', entitlements: ['tasks-unlimited'] }
const PRO_CLAIMS = { plan: 'pro', entitlements: ['tasks-unlimited'] }
const FREE_CLAIMS = { plan: 'free', entitlements: [] }

let eventCount = 0
const seconds = (at: Date) => Math.floor(at.getTime() / 1000)

/** A Stripe event as the webhook receives it, made at `at`. */
function stripeEvent(type: string, object: object, at: Date, id = `evt_test_${process.pid}_${++eventCount}`) {
  return { id, object: 'event', api_version: '2026-10-28.endive', created: seconds(at), type, livemode: false, data: { object } }
}

interface SubscriptionFields {
  id: string
  customer: string
  status: string
  periodEnd: Date
  price?: string
  cancelAtPeriodEnd?: boolean
  metadata?: Record<string, string>
}

function subscription({ id, customer, status, periodEnd, price = 'price_pro', cancelAtPeriodEnd = false, metadata = {} }: SubscriptionFields) {
  return {
    id,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: cancelAtPeriodEnd,
    metadata,
    items: { object: 'list', data: [{ id: `si_${id}`, object: 'subscription_item', price: { id: price, object: 'price' }, current_period_end: seconds(periodEnd) }] }
  }
}

function invoice(fields: { id: string; customer: string; subscription: string; amount: number; currency?: string; paidAt?: Date; created: Date }) {
  return {
    id: fields.id,
    object: 'invoice',
    customer: fields.customer,
    amount_due: fields.amount,
    amount_paid: fields.paidAt ? fields.amount : 0,
    currency: fields.currency ?? 'eur',
    created: seconds(fields.created),
    hosted_invoice_url: `https://invoice.stripe.com/i/${fields.id}`,
    status_transitions: { paid_at: fields.paidAt ? seconds(fields.paidAt) : null },
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: fields.subscription, metadata: {} } }
  }
}

describe.each(databasesUnderTest())('the Stripe webhook on $name', (database) => {
  const clock = testClock()
  const stand = useStripeStandIn()
  const smtp = useSmtpServer()
  const hub = useHubApp(database, () => ({
    now: clock.now,
    mailSenderIntervalMs: 50,
    config: { billing: stripeBilling(stand.in.url), smtpUrl: smtpUrlFor(smtp.server.port) }
  }))
  beforeAll(async () => {
    await createPlans(hub.handle.db).save(PRO, clock.now())
  })

  const post = (event: object, at = clock.now(), secret?: string) => {
    const { payload, headers } = signedWebhook(event, at, secret)
    return hub.app.inject({ method: 'POST', url: '/api/billing/webhook', headers, payload })
  }
  const deliver = async (event: object) => {
    const response = await post(event)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ received: true })
  }
  /** What an application reads in a token issued now, in a fresh session (the clock moves past a session's 30 days). */
  const claimsOf = async (user: SignedIn) => {
    const session = await logIn(hub.app, user.email)
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: session.headers, payload: { audience: 'tasks' } })
    expect(response.statusCode, response.body).toBe(200)
    const { plan, entitlements } = decodeJwt(response.json<{ token: string }>().token)
    return { plan, entitlements }
  }
  const stored = (userId: string) => hub.handle.db.selectFrom('billingSubscriptions').selectAll().where('userId', '=', userId).executeTakeFirst()
  const billingAudit = async (userId: string) =>
    (await hub.handle.db.selectFrom('auditEvents').select(['type', 'detail']).where('userId', '=', userId).where('type', 'like', 'billing.%').orderBy('createdAt').orderBy('id').execute()).map(
      ({ type, detail }) => ({ type, detail: JSON.parse(detail) as unknown })
    )
  /** A person who went through Checkout: the account and the Stripe customer the hub made for it. */
  const subscriber = async (label: string) => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail(label))
    const response = await hub.app.inject({ method: 'POST', url: '/api/billing/checkout', headers: user.headers, payload: { plan: 'pro' } })
    expect(response.statusCode, response.body).toBe(200)
    const { stripeCustomerId } = await hub.handle.db.selectFrom('billingCustomers').select('stripeCustomerId').where('userId', '=', user.userId).executeTakeFirstOrThrow()
    return { user, customer: stripeCustomerId }
  }

  it('follows a subscription through active, past due within and past its grace, active again and deleted, in tokens and the audit trail', async () => {
    const { user, customer } = await subscriber('lifecycle')
    const sub = { id: `sub_${user.userId}`, customer }
    expect(await claimsOf(user)).toEqual(FREE_CLAIMS)

    const firstEnd = new Date(clock.now().getTime() + 30 * DAY_MS)
    await deliver(stripeEvent('customer.subscription.created', subscription({ ...sub, status: 'active', periodEnd: firstEnd }), clock.now()))
    expect(await claimsOf(user)).toEqual(PRO_CLAIMS)
    expect(await stored(user.userId)).toMatchObject({ planId: 'pro', status: 'active', currentPeriodEnd: firstEnd.toISOString(), stripeSubscriptionId: sub.id, pastDueSince: null })

    // The renewal fails: past due, with the plan kept for the 7 days of grace.
    clock.advance(30 * DAY_MS)
    const pastDueAt = clock.now()
    const secondEnd = new Date(clock.now().getTime() + 30 * DAY_MS)
    await deliver(stripeEvent('customer.subscription.updated', subscription({ ...sub, status: 'past_due', periodEnd: secondEnd }), clock.now()))
    expect(await stored(user.userId)).toMatchObject({ status: 'past_due', pastDueSince: pastDueAt.toISOString() })
    clock.advance(6 * DAY_MS)
    // Still past due a day later: the grace period counts from when it began.
    await deliver(stripeEvent('customer.subscription.updated', subscription({ ...sub, status: 'unpaid', periodEnd: secondEnd }), clock.now()))
    expect(await stored(user.userId)).toMatchObject({ status: 'past_due', pastDueSince: pastDueAt.toISOString() })
    expect(await claimsOf(user)).toEqual(PRO_CLAIMS)
    clock.advance(1 * DAY_MS)
    expect(await claimsOf(user)).toEqual(FREE_CLAIMS)

    await deliver(stripeEvent('customer.subscription.updated', subscription({ ...sub, status: 'active', periodEnd: secondEnd, cancelAtPeriodEnd: true }), clock.now()))
    expect(await claimsOf(user)).toEqual(PRO_CLAIMS)
    expect(await stored(user.userId)).toMatchObject({ status: 'active', pastDueSince: null, cancelAtPeriodEnd: 1 })

    clock.advance(DAY_MS)
    await deliver(stripeEvent('customer.subscription.deleted', subscription({ ...sub, status: 'canceled', periodEnd: secondEnd }), clock.now()))
    expect(await claimsOf(user)).toEqual(FREE_CLAIMS)
    expect(await stored(user.userId)).toMatchObject({ status: 'canceled' })

    expect(await billingAudit(user.userId)).toEqual([
      { type: 'billing.checkout.started', detail: { plan: 'pro' } },
      { type: 'billing.plan.changed', detail: { plan: 'pro', status: 'active', source: 'stripe' } },
      { type: 'billing.plan.changed', detail: { plan: 'pro', status: 'past_due', source: 'stripe' } },
      { type: 'billing.plan.changed', detail: { plan: 'pro', status: 'past_due', source: 'stripe' } },
      { type: 'billing.plan.changed', detail: { plan: 'pro', status: 'active', source: 'stripe' } },
      { type: 'billing.plan.changed', detail: { plan: 'pro', status: 'canceled', source: 'stripe' } }
    ])
  })

  it('refuses a bad, missing, tampered or stale signature with 400 and changes nothing', async () => {
    const { user, customer } = await subscriber('signatures')
    const event = stripeEvent('customer.subscription.created', subscription({ id: `sub_${user.userId}`, customer, status: 'active', periodEnd: new Date(clock.now().getTime() + 30 * DAY_MS) }), clock.now())
    const { payload, headers } = signedWebhook(event, clock.now())
    const attempts = [
      await post(event, clock.now(), 'whsec_someoneElse'),
      await hub.app.inject({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json' }, payload }),
      await hub.app.inject({ method: 'POST', url: '/api/billing/webhook', headers, payload: payload.replace('"active"', '"trialing"') }),
      // Over 5 minutes old by the hub's clock.
      await post(event, new Date(clock.now().getTime() - 301_000))
    ]
    for (const response of attempts) {
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: BAD_SIGNATURE })
    }
    expect(await hub.handle.db.selectFrom('billingWebhookEvents').select('id').where('id', '=', event.id).execute()).toEqual([])
    expect(await stored(user.userId)).toBeUndefined()
    // Signed 4 minutes ago: within the tolerance.
    expect((await post(event, new Date(clock.now().getTime() - 240_000))).statusCode).toBe(200)
    expect(await stored(user.userId)).toMatchObject({ status: 'active' })
  })

  it.each([
    ['JSON cut short', '{"id":"evt_cut","type":"invoice.paid"'],
    ['not JSON', 'hello'],
    ['JSON null', 'null'],
    ['an array', '[]'],
    ['an event without its object', '{"id":"evt_bare","object":"event","type":"invoice.paid","created":1893456000}'],
    ['an event whose created is no time', '{"id":"evt_when","object":"event","type":"invoice.paid","created":"soon","data":{"object":{}}}']
  ])('refuses a signed body that is %s with 400, not a 500', async (_case, payload) => {
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_TEST_WEBHOOK_SECRET, timestamp: Math.floor(clock.now().getTime() / 1000) })
    const response = await hub.app.inject({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: NOT_AN_EVENT })
  })

  it('applies each event id once: a replay answers 200 and changes nothing', async () => {
    const { user, customer } = await subscriber('replay')
    const sub = `sub_${user.userId}`
    const paid = stripeEvent('invoice.paid', invoice({ id: `in_${user.userId}`, customer, subscription: sub, amount: 1200, paidAt: clock.now(), created: clock.now() }), clock.now())
    await deliver(paid)
    await deliver(paid)
    expect(await hub.handle.db.selectFrom('billingInvoices').select(['amount', 'currency', 'status', 'url']).where('userId', '=', user.userId).execute()).toEqual([
      { amount: 1200, currency: 'EUR', status: 'paid', url: `https://invoice.stripe.com/i/in_${user.userId}` }
    ])
    expect((await billingAudit(user.userId)).filter((event) => event.type === 'billing.invoice.paid')).toEqual([{ type: 'billing.invoice.paid', detail: { total: '12.00 EUR' } }])
  })

  it('never moves a subscription back: older events, earlier periods and events after the end are ignored', async () => {
    const { user, customer } = await subscriber('order')
    const sub = { id: `sub_${user.userId}`, customer }
    const t0 = clock.now()
    const end1 = new Date(t0.getTime() + 30 * DAY_MS)
    const end2 = new Date(t0.getTime() + 60 * DAY_MS)
    const created = stripeEvent('customer.subscription.created', subscription({ ...sub, status: 'active', periodEnd: end1 }), t0)
    const later = stripeEvent('customer.subscription.updated', subscription({ ...sub, status: 'past_due', periodEnd: end2 }), new Date(t0.getTime() + 60_000))
    // The later one arrives first; the earlier, when it comes, is older than what is stored.
    await deliver(later)
    await deliver(created)
    expect(await stored(user.userId)).toMatchObject({ status: 'past_due', currentPeriodEnd: end2.toISOString() })

    // Same second as the stored state, but an earlier period: an old state.
    await deliver(stripeEvent('customer.subscription.updated', subscription({ ...sub, status: 'active', periodEnd: end1 }), new Date(t0.getTime() + 60_000)))
    expect(await stored(user.userId)).toMatchObject({ status: 'past_due', currentPeriodEnd: end2.toISOString() })

    await deliver(stripeEvent('customer.subscription.deleted', subscription({ ...sub, status: 'canceled', periodEnd: end2 }), new Date(t0.getTime() + 120_000)))
    // Stripe never revives a canceled subscription: a later "active" for it is a stale state.
    await deliver(stripeEvent('customer.subscription.updated', subscription({ ...sub, status: 'active', periodEnd: end2 }), new Date(t0.getTime() + 180_000)))
    expect(await stored(user.userId)).toMatchObject({ status: 'canceled' })
    expect(await claimsOf(user)).toEqual(FREE_CLAIMS)

    // A new subscription after the end is the account's.
    const next = { id: `sub_next_${user.userId}`, customer }
    await deliver(stripeEvent('customer.subscription.created', subscription({ ...next, status: 'incomplete', periodEnd: end2 }), new Date(t0.getTime() + 240_000)))
    expect(await stored(user.userId)).toMatchObject({ status: 'canceled', stripeSubscriptionId: sub.id })
    await deliver(stripeEvent('customer.subscription.updated', subscription({ ...next, status: 'active', periodEnd: end2 }), new Date(t0.getTime() + 300_000)))
    expect(await stored(user.userId)).toMatchObject({ status: 'active', stripeSubscriptionId: next.id })
    // The end of some other subscription takes nothing from it.
    await deliver(stripeEvent('customer.subscription.deleted', subscription({ id: 'sub_abandoned', customer, status: 'incomplete_expired', periodEnd: end2 }), new Date(t0.getTime() + 360_000)))
    expect(await stored(user.userId)).toMatchObject({ status: 'active', stripeSubscriptionId: next.id })
    expect(await claimsOf(user)).toEqual(PRO_CLAIMS)
  })

  it('links the customer of a completed checkout, and finds an account by the metadata the checkout wrote', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('metadata'))
    const customer = `cus_elsewhere_${user.userId}`
    await deliver(stripeEvent('customer.subscription.created', subscription({ id: `sub_${user.userId}`, customer, status: 'trialing', periodEnd: new Date(clock.now().getTime() + 14 * DAY_MS), metadata: { userId: user.userId } }), clock.now()))
    expect(await claimsOf(user)).toEqual(PRO_CLAIMS)
    expect(await stored(user.userId)).toMatchObject({ status: 'trialing' })

    await deliver(stripeEvent('checkout.session.completed', { id: 'cs_test_1', object: 'checkout.session', client_reference_id: user.userId, customer, mode: 'subscription' }, clock.now()))
    expect(await hub.handle.db.selectFrom('billingCustomers').select('stripeCustomerId').where('userId', '=', user.userId).execute()).toEqual([{ stripeCustomerId: customer }])
  })

  it('answers 200 and stores nothing for an unknown customer or price, and acknowledges types it does not handle', async () => {
    const { user, customer } = await subscriber('unknown')
    const end = new Date(clock.now().getTime() + 30 * DAY_MS)
    const unknownCustomer = stripeEvent('customer.subscription.created', subscription({ id: 'sub_stranger', customer: 'cus_stranger', status: 'active', periodEnd: end, metadata: { userId: 'no-such-account' } }), clock.now())
    const unknownPrice = stripeEvent('customer.subscription.created', subscription({ id: `sub_${user.userId}`, customer, status: 'active', periodEnd: end, price: 'price_unsold' }), clock.now())
    await deliver(unknownCustomer)
    await deliver(unknownPrice)
    expect(await hub.handle.db.selectFrom('billingWebhookEvents').select('id').where('id', 'in', [unknownCustomer.id, unknownPrice.id]).execute()).toEqual([])
    expect(await stored(user.userId)).toBeUndefined()

    const other = stripeEvent('customer.created', { id: customer, object: 'customer' }, clock.now())
    await deliver(other)
    expect(await hub.handle.db.selectFrom('billingWebhookEvents').select(['id', 'type']).where('id', '=', other.id).execute()).toEqual([{ id: other.id, type: 'customer.created' }])
  })

  it('records a failed payment: the invoice, past due from then, the audit trail, and a mail linking to /billing', async () => {
    const { user, customer } = await subscriber('payment-failed')
    const sub = `sub_${user.userId}`
    const end = new Date(clock.now().getTime() + 30 * DAY_MS)
    await deliver(stripeEvent('customer.subscription.created', subscription({ id: sub, customer, status: 'active', periodEnd: end }), clock.now()))
    clock.advance(60_000)
    const failedAt = clock.now()
    const failed = stripeEvent('invoice.payment_failed', invoice({ id: `in_${user.userId}`, customer, subscription: sub, amount: 1200, created: failedAt }), failedAt)
    await deliver(failed)
    await deliver(failed)

    expect(await stored(user.userId)).toMatchObject({ status: 'past_due', pastDueSince: failedAt.toISOString() })
    expect(await claimsOf(user)).toEqual(PRO_CLAIMS)
    expect(await hub.handle.db.selectFrom('billingInvoices').select(['status', 'amount', 'paidAt']).where('userId', '=', user.userId).execute()).toEqual([{ status: 'failed', amount: 1200, paidAt: null }])
    expect((await billingAudit(user.userId)).slice(-2)).toEqual([
      { type: 'billing.plan.changed', detail: { plan: 'pro', status: 'past_due', source: 'stripe' } },
      { type: 'billing.payment.failed', detail: { total: '12.00 EUR' } }
    ])
    // The first is the sign-up's verification mail.
    const mail = (await mailsTo(smtp.server, user.email, 2)).find((received) => received.subject !== 'Confirm your address for Hearth')
    expect(mail?.subject).toBe('A payment for your Hearth plan did not go through')
    expect(mail?.text).toContain('12.00 EUR')
    expect(mail?.text).toContain(`${HUB_ORIGIN}/billing`)

    // Paid on Stripe's retry; a failure reported late for it changes nothing.
    clock.advance(60_000)
    await deliver(stripeEvent('invoice.paid', invoice({ id: `in_${user.userId}`, customer, subscription: sub, amount: 1200, paidAt: clock.now(), created: failedAt }), clock.now()))
    await deliver(stripeEvent('invoice.payment_failed', invoice({ id: `in_${user.userId}`, customer, subscription: sub, amount: 1200, created: failedAt }), failedAt))
    expect(await hub.handle.db.selectFrom('billingInvoices').select(['status', 'paidAt']).where('userId', '=', user.userId).execute()).toEqual([{ status: 'paid', paidAt: clock.now().toISOString() }])
    expect((await billingAudit(user.userId)).filter((event) => event.type === 'billing.payment.failed')).toHaveLength(1)
  })
})
