import { beforeAll, describe, expect, it } from 'vitest'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { createSubscriptions } from '../../../../src/hub/features/billing/subscriptions.js'
import type { App } from '../../../../src/shared/http/server.js'
import { FAMILY_PLAN, PRO_PLAN, TEAM_PLAN, UNREACHABLE_STRIPE, insertInvoice } from '../../../helpers/billing.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, expectStrictPageCsp, hubAppPerSuite, pageCookies, signUpAndLogIn, testClock } from '../../../helpers/hub-app.js'

const DAY_MS = 86_400_000
const NBSP = '\u00a0'

/** The offers' Subscribe buttons, by plan id, in order. */
const offeredPlans = (html: string) => [...html.matchAll(/data-action="subscribe" data-plan="([^"]+)"/g)].map((match) => match[1])
/** The invoice table's rows, by invoice id, in order. */
const invoiceRows = (html: string) => [...html.matchAll(/<tr data-invoice="([^"]+)">/g)].map((match) => match[1])

/** The billing page through the hub's whole pipeline, on the first database under test: its reads are GET /api/billing's, tested on both. */
describe('the billing page without a payment provider', () => {
  const [database] = databasesUnderTest()
  const clock = testClock(new Date('2030-03-01T00:00:00.000Z'))
  const suite = hubAppPerSuite(database!, { now: clock.now })
  let app: App
  beforeAll(async () => {
    app = suite.app
    for (const plan of [FAMILY_PLAN, PRO_PLAN, TEAM_PLAN]) await createPlans(suite.handle.db).save(plan, clock.now())
  })
  const page = (url: string, who: SignedIn, lang = 'en') => app.inject({ method: 'GET', url, headers: pageCookies(who, { lang }) })

  it('sends a visit without a session to the login page, coming back afterwards', async () => {
    const response = await app.inject({ method: 'GET', url: '/billing' })
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe('/login?next=%2Fbilling')
  })

  it('shows the free plan in English, and no payment button', async () => {
    const user = await signUpAndLogIn(app)
    const response = await page('/billing', user)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.headers['cache-control']).toBe('no-store')
    const { body } = response
    expect(body).toContain('<h1>Plan and billing</h1>')
    expect(body).toContain('<dd data-plan="free">Free</dd>')
    expect(body).toContain('<dd data-status="active">Active</dd>')
    expect(body).toContain('Nothing beyond what every account has.')
    expect(body).toContain('Plans are set by whoever runs this hub: ask them to change yours.')
    expect(body).toContain('No invoice yet.')
    expect(body).not.toContain('data-action="subscribe"')
    expect(body).not.toContain('data-action="manage-billing"')
    expect(body).not.toContain('Other plans')
  })

  it('shows it in Spanish', async () => {
    const user = await signUpAndLogIn(app)
    const response = await page('/billing', user, 'es')
    expect(response.headers['content-language']).toBe('es')
    expect(response.body).toContain('<h1>Plan y facturación</h1>')
    expect(response.body).toContain('<dd data-status="active">Activo</dd>')
    expect(response.body).toContain('Los planes los asigna quien administra este hub')
  })

  it('shows a plan set by hand with its end and entitlements, and the invoices newest first, in the page’s language', async () => {
    const user = await signUpAndLogIn(app)
    const { db } = suite.handle
    const until = new Date(clock.now().getTime() + 30 * DAY_MS)
    await createSubscriptions(db, 7).setByHand(user.userId, 'family', until, clock.now())
    const start = clock.now().getTime() - 90 * DAY_MS
    await insertInvoice(db, user.userId, 'in_old', new Date(start))
    await insertInvoice(db, user.userId, 'in_yen', new Date(start + DAY_MS), { amount: 1200, currency: 'jpy' })
    await insertInvoice(db, user.userId, 'in_new', new Date(start + 2 * DAY_MS), { amount: 9900 })
    await insertInvoice(db, user.userId, 'in_script', new Date(start + 3 * DAY_MS), { url: 'javascript:alert(1)' })
    await insertInvoice(db, user.userId, 'in_failed', new Date(start + 4 * DAY_MS), { status: 'failed' })

    const english = (await page('/billing', user)).body
    expect(english).toContain('<dd data-plan="family">Family</dd>')
    expect(english).toContain('<code>shared-lists</code>')
    expect(english).toContain('<code>exports</code>')
    expect(english).toContain(`<dt>Current period ends</dt><dd><time datetime="${until.toISOString()}">`)
    expect(invoiceRows(english)).toEqual(['in_script', 'in_new', 'in_yen', 'in_old'])
    expect(english).toContain('<td data-label="Amount">€99.00</td>')
    expect(english).toContain('<td data-label="Amount">€12.00</td>')
    expect(english).toContain('<td data-label="Amount">¥1,200</td>')
    expect(english).toContain('<a href="https://invoice.stripe.com/i/in_new" target="_blank" rel="noopener noreferrer">View invoice in_new (opens in a new tab)</a>')
    // A URL that is not a web page is never a link.
    expect(english).not.toContain('javascript:')
    expect(english).toContain('<td data-label="Invoice">in_script</td>')

    const spanish = (await page('/billing', user, 'es')).body
    expect(spanish).toContain(`<td data-label="Importe">99,00${NBSP}€</td>`)
    expect(spanish).toContain('Ver la factura in_new (se abre en otra pestaña)')
  })

  it('says when a subscription ends at the period’s end rather than renewing', async () => {
    const user = await signUpAndLogIn(app)
    const { db } = suite.handle
    await createSubscriptions(db, 7).setByHand(user.userId, 'pro', null, clock.now())
    const periodEnd = new Date(clock.now().getTime() + 5 * DAY_MS).toISOString()
    await db.updateTable('billingSubscriptions').set({ stripeSubscriptionId: 'sub_x', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: 1 }).where('userId', '=', user.userId).execute()
    const body = (await page('/billing', user)).body
    expect(body).toContain(`<dt>Ends on</dt><dd><time datetime="${periodEnd}">`)
    expect(body).toContain('it ends at the end of the current period and is not renewed')
    expect((await page('/billing', user, 'es')).body).toContain('termina al final del periodo actual')
  })

  it.each([
    ['en', 'Your plan and billing'],
    ['es', 'Tu plan y facturación']
  ])('is linked from the dashboard (%s)', async (lang, words) => {
    const user = await signUpAndLogIn(app)
    expect((await page('/dashboard', user, lang)).body).toContain(`<a href="/billing">${words}</a>`)
  })

  it('carries the strict CSP, and its one script tag the response nonce', async () => {
    const user = await signUpAndLogIn(app)
    expectStrictPageCsp(await page('/billing', user), '/billing')
  })
})

describe('the billing page with Stripe', () => {
  const [database] = databasesUnderTest()
  const suite = hubAppPerSuite(database!, { config: { billing: { graceDays: 7, stripe: UNREACHABLE_STRIPE } } })
  let app: App
  beforeAll(async () => {
    app = suite.app
    for (const plan of [FAMILY_PLAN, PRO_PLAN, TEAM_PLAN]) await createPlans(suite.handle.db).save(plan, new Date())
  })
  const page = (url: string, who: SignedIn, lang = 'en') => app.inject({ method: 'GET', url, headers: pageCookies(who, { lang }) })

  it('offers every plan Stripe sells, with its price, a Subscribe button each, and Manage billing', async () => {
    const user = await signUpAndLogIn(app)
    const body = (await page('/billing', user)).body
    // Not free (nothing to pay), not family (Stripe does not sell it).
    expect(offeredPlans(body)).toEqual(['pro', 'team'])
    expect(body).toContain('<button type="button" data-action="subscribe" data-plan="pro">Subscribe to Pro</button>')
    expect(body).toContain('<p>€12.00 a month</p>')
    expect(body).toContain('<p>€99.00 a year</p>')
    expect(body).toContain('<p>Includes: tasks-unlimited, shared-lists</p>')
    expect(body).toContain('<button type="button" data-action="manage-billing">Manage billing</button>')
    expect(body).not.toContain('Plans are set by whoever runs this hub')
    // Each button's section words the API's 409 for it.
    expect(body).toContain('data-msg-email-taken="You have a subscription already')
    expect(body).toContain('data-msg-email-taken="You have not paid through Stripe yet')
    // The messages land in a live region.
    expect(body.match(/<p class="form-message" role="alert" data-form-message="true"><\/p>/g)).toHaveLength(2)
  })

  it('does not offer the plan in effect', async () => {
    const user = await signUpAndLogIn(app)
    await createSubscriptions(suite.handle.db, 7).setByHand(user.userId, 'pro', null, new Date())
    expect(offeredPlans((await page('/billing', user)).body)).toEqual(['team'])
  })

  it('tells a person whose payment failed to fix it with Manage billing', async () => {
    const user = await signUpAndLogIn(app)
    await createSubscriptions(suite.handle.db, 7).setByHand(user.userId, 'pro', null, new Date())
    const before = (await page('/billing', user)).body
    expect(before).not.toContain('Your last payment failed')
    await suite.handle.db.updateTable('billingSubscriptions').set({ status: 'past_due', pastDueSince: new Date().toISOString(), stripeSubscriptionId: 'sub_due' }).where('userId', '=', user.userId).execute()
    const body = (await page('/billing', user)).body
    expect(body).toContain('<dd data-status="past_due">Payment overdue</dd>')
    expect(body).toContain('Your last payment failed. Update your payment method with “Manage billing” to keep your plan.')
    expect((await page('/billing', user, 'es')).body).toContain('<dd data-status="past_due">Pago pendiente</dd>')
  })

  it('offers them in Spanish', async () => {
    const user = await signUpAndLogIn(app)
    const body = (await page('/billing', user, 'es')).body
    expect(body).toContain('>Suscribirse a Pro</button>')
    expect(body).toContain(`<p>12,00${NBSP}€ al mes</p>`)
    expect(body).toContain('>Gestionar la facturación</button>')
  })

  it('carries the strict CSP, buttons and all', async () => {
    const user = await signUpAndLogIn(app)
    expectStrictPageCsp(await page('/billing', user), '/billing')
  })
})
