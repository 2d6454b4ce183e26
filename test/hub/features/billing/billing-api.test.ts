import { beforeAll, describe, expect, it } from 'vitest'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { createSubscriptions } from '../../../../src/hub/features/billing/subscriptions.js'
import { FAMILY_PLAN, PRO_PLAN, insertInvoice } from '../../../helpers/billing.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { IDP_USER, useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { type SignedIn, cookieHeader, cookiesSetBy, logIn, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'

const DAY_MS = 86_400_000

describe.each(databasesUnderTest())('GET /api/billing on $name', (database) => {
  const clock = testClock(new Date('2030-03-01T00:00:00.000Z'))
  const hub = useHubApp(database, () => ({ now: clock.now, config: { billing: { graceDays: 3, stripe: undefined } } }))
  beforeAll(async () => {
    for (const plan of [FAMILY_PLAN, PRO_PLAN]) await createPlans(hub.handle.db).save(plan, clock.now())
  })

  const billingOf = async (user: SignedIn) => {
    const response = await hub.app.inject({ method: 'GET', url: '/api/billing', headers: user.headers })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<Record<string, unknown>>()
  }

  it('answers 401 without a session', async () => {
    const response = await hub.app.inject({ method: 'GET', url: '/api/billing' })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: expect.any(String) })
  })

  it('is the free plan, active, for an account that never had another', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('billing-free'))
    expect(await billingOf(user)).toEqual({
      plan: { id: 'free', name: 'Free', price: 0, currency: null, interval: null },
      status: 'active',
      entitlements: [],
      entitlementSources: [],
      groupPlans: [],
      household: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      invoices: []
    })
  })

  it('is the plan set by hand until its date, then free again', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('billing-by-hand'))
    const until = new Date(clock.now().getTime() + DAY_MS)
    await createSubscriptions(hub.handle.db, 3).setByHand(user.userId, 'family', until, clock.now())
    expect(await billingOf(user)).toMatchObject({
      plan: { id: 'family', name: 'Family', price: null, currency: null, interval: null },
      status: 'active',
      entitlements: ['shared-lists', 'exports'],
      currentPeriodEnd: until.toISOString(),
      cancelAtPeriodEnd: false
    })
    clock.advance(DAY_MS)
    // The auth cookie lives minutes: a day on, the browser would have signed in afresh.
    expect(await billingOf(await logIn(hub.app, user.email))).toMatchObject({ plan: { id: 'free' }, status: 'canceled', entitlements: [] })
  })

  it('keeps a past-due plan through the grace period only, saying past_due throughout', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('billing-past-due'))
    const { db } = hub.handle
    await createSubscriptions(db, 3).setByHand(user.userId, 'pro', null, clock.now())
    const periodEnd = new Date(clock.now().getTime() + 10 * DAY_MS).toISOString()
    await db
      .updateTable('billingSubscriptions')
      .set({ status: 'past_due', pastDueSince: new Date(clock.now().getTime() - 3 * DAY_MS + 60_000).toISOString(), stripeSubscriptionId: 'sub_1', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: 1 })
      .where('userId', '=', user.userId)
      .execute()
    expect(await billingOf(user)).toMatchObject({
      plan: { id: 'pro', name: 'Pro', price: 1200, currency: 'EUR', interval: 'month' },
      status: 'past_due',
      entitlements: ['tasks-unlimited'],
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: true
    })
    clock.advance(60_000)
    expect(await billingOf(user)).toMatchObject({ plan: { id: 'free', name: 'Free' }, status: 'past_due', entitlements: [] })
  })

  it('lists the latest 24 paid invoices, newest first: no failed payment, nobody else’s', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('billing-invoices'))
    const other = await signUpAndLogIn(hub.app, uniqueEmail('billing-invoices-other'))
    const { db } = hub.handle
    const start = clock.now().getTime()
    // Inserted oldest last, so the order comes from paidAt, not from insertion.
    for (let month = 25; month >= 0; month -= 1) await insertInvoice(db, user.userId, `in_${user.userId.slice(0, 8)}_${String(month).padStart(2, '0')}`, new Date(start + month * 30 * DAY_MS))
    await insertInvoice(db, user.userId, `in_failed_${user.userId.slice(0, 8)}`, new Date(start + 40 * 30 * DAY_MS), { status: 'failed' })
    await insertInvoice(db, other.userId, `in_other_${other.userId.slice(0, 8)}`, new Date(start + 50 * 30 * DAY_MS))

    const { invoices } = (await billingOf(user)) as { invoices: { id: string; amount: number; currency: string; paidAt: string; url: string | null }[] }
    expect(invoices).toHaveLength(24)
    expect(invoices.map(({ id }) => id.slice(-2))).toEqual(Array.from({ length: 24 }, (_, index) => String(25 - index).padStart(2, '0')))
    expect(invoices[0]).toEqual({
      id: `in_${user.userId.slice(0, 8)}_25`,
      amount: 1200,
      currency: 'eur',
      paidAt: new Date(start + 25 * 30 * DAY_MS).toISOString(),
      url: `https://invoice.stripe.com/i/in_${user.userId.slice(0, 8)}_25`
    })
    expect((await billingOf(other)).invoices).toHaveLength(1)
  })
})

describe.each(databasesUnderTest())('GET /api/billing under an external identity provider on $name', (database) => {
  const idp = useHubWithExternalProvider(database)

  it('answers for someone who signs in at the provider: the hub keeps their billing either way', async () => {
    await createSubscriptions(idp.handle.db, 7).setByHand(IDP_USER, 'free', null, new Date())
    const cookies = cookiesSetBy(await idp.signIn())
    const response = await idp.app.inject({ method: 'GET', url: '/api/billing', headers: { cookie: cookieHeader({ 'service-auth-token': cookies['service-auth-token']?.value }) } })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ plan: { id: 'free' }, status: 'active', invoices: [] })
  })
})
