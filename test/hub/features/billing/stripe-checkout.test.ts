import { beforeAll, describe, expect, it } from 'vitest'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { ALREADY_SUBSCRIBED, NO_CUSTOMER, NO_PAYMENTS } from '../../../../src/hub/features/billing/stripe-routes.js'
import { anonymousHeaders } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { HUB_ORIGIN, type SignedIn, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { stripeBilling, useStripeStandIn } from '../../../helpers/stripe-stand-in.js'

const PRO = { id: 'pro', name: 'Pro', price: 1200, currency: 'EUR', interval: 'month' as const, stripePriceId: 'price_pro', entitlements: ['tasks-unlimited'] }
const FAMILY = { id: 'family', name: 'Family', price: null, currency: null, interval: null, stripePriceId: null, entitlements: ['shared-lists'] }

describe.each(databasesUnderTest())('Stripe Checkout and Customer Portal on $name', (database) => {
  const stand = useStripeStandIn()
  const hub = useHubApp(database, () => ({ config: { billing: stripeBilling(stand.in.url) } }))
  beforeAll(async () => {
    for (const plan of [PRO, FAMILY]) await createPlans(hub.handle.db).save(plan, new Date())
  })
  const checkout = (user: Pick<SignedIn, 'headers'>, payload: object = { plan: 'pro' }) =>
    hub.app.inject({ method: 'POST', url: '/api/billing/checkout', headers: user.headers, payload })
  const portal = (user: Pick<SignedIn, 'headers'>) => hub.app.inject({ method: 'POST', url: '/api/billing/portal', headers: user.headers })
  const callsTo = (path: string) => stand.in.calls.filter((call) => call.path === path)
  const auditOf = (userId: string) => hub.handle.db.selectFrom('auditEvents').select(['type', 'detail']).where('userId', '=', userId).where('type', 'like', 'billing.%').execute()

  it("opens a Checkout Session for the plan's Stripe price, as the account's own customer, and sends the person back to /billing", async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('checkout'))
    const before = stand.in.calls.length
    const response = await checkout(user)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<{ url: string }>().url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)

    const [customer, session] = stand.in.calls.slice(before)
    expect(customer).toEqual({
      method: 'POST',
      path: '/v1/customers',
      form: { email: user.email, 'metadata[userId]': user.userId },
      idempotencyKey: `hearth-customer-${user.userId}`
    })
    const customerId = (await hub.handle.db.selectFrom('billingCustomers').select('stripeCustomerId').where('userId', '=', user.userId).executeTakeFirstOrThrow()).stripeCustomerId
    expect(session?.method).toBe('POST')
    expect(session?.path).toBe('/v1/checkout/sessions')
    expect(session?.form).toEqual({
      mode: 'subscription',
      'line_items[0][price]': 'price_pro',
      'line_items[0][quantity]': '1',
      customer: customerId,
      client_reference_id: user.userId,
      'subscription_data[metadata][userId]': user.userId,
      success_url: `${HUB_ORIGIN}/billing`,
      cancel_url: `${HUB_ORIGIN}/billing`
    })
    expect(await auditOf(user.userId)).toEqual([{ type: 'billing.checkout.started', detail: JSON.stringify({ plan: 'pro' }) }])
  })

  it('reuses the customer on a second checkout, and makes one for two checkouts at once', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('checkout-twice'))
    const customersBefore = callsTo('/v1/customers').length
    const sessionsBefore = callsTo('/v1/checkout/sessions').length
    const [first, second] = await Promise.all([checkout(user), checkout(user)])
    expect([first?.statusCode, second?.statusCode]).toEqual([200, 200])
    expect((await checkout(user)).statusCode).toBe(200)

    // Both concurrent creations carried the account's key, so Stripe answered one customer.
    const creations = callsTo('/v1/customers').slice(customersBefore)
    expect(creations.map((call) => call.idempotencyKey)).toEqual(creations.map(() => `hearth-customer-${user.userId}`))
    expect(creations.length).toBeLessThanOrEqual(2)
    const customers = new Set(callsTo('/v1/checkout/sessions').slice(sessionsBefore).map((call) => call.form.customer))
    expect(customers.size).toBe(1)
    expect(await hub.handle.db.selectFrom('billingCustomers').select('stripeCustomerId').where('userId', '=', user.userId).execute()).toEqual([{ stripeCustomerId: [...customers][0] }])
  })

  it('answers 400 for an unknown plan, the free plan and a plan Stripe does not sell, and calls Stripe for none', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('checkout-bad'))
    const before = stand.in.calls.length
    const cases: [object, string][] = [
      [{ plan: 'gold' }, 'No plan has the id gold'],
      [{ plan: 'free' }, 'The free plan needs no payment'],
      [{ plan: 'family' }, 'The plan family is not sold through Stripe']
    ]
    for (const [payload, error] of cases) {
      const response = await checkout(user, payload)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error })
    }
    const noPlan = await checkout(user, {})
    expect(noPlan.statusCode).toBe(400)
    expect(noPlan.json()).toHaveProperty('error')
    expect(stand.in.calls.length).toBe(before)
  })

  it('answers 409 to a checkout while the account has a live Stripe subscription: the portal changes plans', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('checkout-subscribed'))
    await hub.handle.db
      .insertInto('billingSubscriptions')
      .values({ userId: user.userId, planId: 'pro', status: 'past_due', currentPeriodEnd: null, cancelAtPeriodEnd: 0, pastDueSince: new Date().toISOString(), stripeSubscriptionId: 'sub_live', stripeStateAt: new Date().toISOString(), updatedAt: new Date().toISOString() })
      .execute()
    const response = await checkout(user)
    expect(response.statusCode).toBe(409)
    expect(response.json()).toEqual({ error: ALREADY_SUBSCRIBED })
    await hub.handle.db.updateTable('billingSubscriptions').set({ status: 'canceled' }).where('userId', '=', user.userId).execute()
    expect((await checkout(user)).statusCode).toBe(200)
  })

  it("opens the Customer Portal for the account's customer, back to /billing; 409 before any checkout", async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('portal'))
    const none = await portal(user)
    expect(none.statusCode).toBe(409)
    expect(none.json()).toEqual({ error: NO_CUSTOMER })

    expect((await checkout(user)).statusCode).toBe(200)
    const response = await portal(user)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<{ url: string }>().url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//)
    const customerId = (await hub.handle.db.selectFrom('billingCustomers').select('stripeCustomerId').where('userId', '=', user.userId).executeTakeFirstOrThrow()).stripeCustomerId
    expect(callsTo('/v1/billing_portal/sessions').at(-1)?.form).toEqual({ customer: customerId, return_url: `${HUB_ORIGIN}/billing` })
    expect((await auditOf(user.userId)).map((event) => event.type)).toEqual(['billing.checkout.started', 'billing.portal.opened'])
  })

  it('answers 401 without a session and 403 without the CSRF token, before calling Stripe', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('checkout-csrf'))
    const before = stand.in.calls.length
    const anonymous = await anonymousHeaders(hub.app)
    for (const url of ['/api/billing/checkout', '/api/billing/portal']) {
      expect((await hub.app.inject({ method: 'POST', url, headers: anonymous, payload: { plan: 'pro' } })).statusCode, url).toBe(401)
      const noCsrf = await hub.app.inject({ method: 'POST', url, headers: { cookie: user.headers.cookie ?? '' }, payload: { plan: 'pro' } })
      expect(noCsrf.statusCode, url).toBe(403)
      expect(noCsrf.json()).toHaveProperty('error')
    }
    expect(stand.in.calls.length).toBe(before)
  })
})

describe.each(databasesUnderTest())('a hub without Stripe on $name', (database) => {
  const hub = useHubApp(database)

  it('answers 404 to checkout, portal and webhook, saying it takes no payments', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('no-stripe'))
    for (const url of ['/api/billing/checkout', '/api/billing/portal']) {
      const response = await hub.app.inject({ method: 'POST', url, headers: user.headers, payload: { plan: 'pro' } })
      expect(response.statusCode, url).toBe(404)
      expect(response.json()).toEqual({ error: NO_PAYMENTS })
    }
    const webhook = await hub.app.inject({ method: 'POST', url: '/api/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, payload: '{"id":"evt_1"}' })
    expect(webhook.statusCode).toBe(404)
    expect(webhook.json()).toEqual({ error: NO_PAYMENTS })
    expect(await hub.handle.db.selectFrom('billingWebhookEvents').selectAll().execute()).toEqual([])
  })
})
