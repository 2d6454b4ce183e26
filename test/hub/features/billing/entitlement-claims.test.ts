import { decodeJwt } from 'jose'
import * as openid from 'openid-client'
import { beforeAll, describe, expect, it } from 'vitest'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { createSubscriptions } from '../../../../src/hub/features/billing/subscriptions.js'
import type { Database } from '../../../../src/shared/database/schema.js'
import type { Kysely } from 'kysely'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { CookieBrowser, authorizationRequest, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'

const DAY_MS = 86_400_000
const FAMILY = { id: 'family', name: 'Family', price: null, currency: null, interval: null, stripePriceId: null, entitlements: ['shared-lists', 'exports'] }

const setPastDue = (db: Kysely<Database>, userId: string, since: Date) =>
  db.updateTable('billingSubscriptions').set({ status: 'past_due', pastDueSince: since.toISOString() }).where('userId', '=', userId).execute()

describe.each(databasesUnderTest())('plan and entitlements in SSO tokens on $name', (database) => {
  const clock = testClock(new Date())
  const hub = useHubApp(database, () => ({ now: clock.now, config: { billing: { graceDays: 3, stripe: undefined } } }))
  beforeAll(async () => {
    await createPlans(hub.handle.db).save(FAMILY, clock.now())
  })

  const claimsOf = async (user: SignedIn) => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(response.statusCode, response.body).toBe(200)
    const { plan, entitlements } = decodeJwt(response.json<{ token: string }>().token)
    return { plan, entitlements }
  }

  it('follows the account through every transition: free, a plan, past due in and out of grace, canceled', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('claims'))
    const { db } = hub.handle
    expect(await claimsOf(user)).toEqual({ plan: 'free', entitlements: [] })

    await createSubscriptions(db, 3).setByHand(user.userId, 'family', null, clock.now())
    expect(await claimsOf(user)).toEqual({ plan: 'family', entitlements: ['shared-lists', 'exports'] })

    await db.updateTable('billingSubscriptions').set({ status: 'trialing' }).where('userId', '=', user.userId).execute()
    expect(await claimsOf(user)).toEqual({ plan: 'family', entitlements: ['shared-lists', 'exports'] })

    // Past due: the plan holds for the grace period (3 days here), then falls back to free.
    await setPastDue(db, user.userId, new Date(clock.now().getTime() - 3 * DAY_MS + 60_000))
    expect(await claimsOf(user)).toEqual({ plan: 'family', entitlements: ['shared-lists', 'exports'] })
    clock.advance(60_000)
    expect(await claimsOf(user)).toEqual({ plan: 'free', entitlements: [] })

    await db.updateTable('billingSubscriptions').set({ status: 'active', pastDueSince: null }).where('userId', '=', user.userId).execute()
    expect(await claimsOf(user)).toEqual({ plan: 'family', entitlements: ['shared-lists', 'exports'] })

    await db.updateTable('billingSubscriptions').set({ status: 'canceled' }).where('userId', '=', user.userId).execute()
    expect(await claimsOf(user)).toEqual({ plan: 'free', entitlements: [] })
  })

  it('ends a plan set by hand at its date, with no job to run', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('claims-until'))
    await createSubscriptions(hub.handle.db, 3).setByHand(user.userId, 'family', new Date(clock.now().getTime() + 60_000), clock.now())
    expect(await claimsOf(user)).toEqual({ plan: 'family', entitlements: ['shared-lists', 'exports'] })
    clock.advance(60_000)
    expect(await claimsOf(user)).toEqual({ plan: 'free', entitlements: [] })
  })

  it('gives the plan’s new entitlements from the next token on when the operator changes it', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('claims-change'))
    await createSubscriptions(hub.handle.db, 3).setByHand(user.userId, 'family', null, clock.now())
    await createPlans(hub.handle.db).save({ ...FAMILY, entitlements: ['shared-lists'] }, clock.now())
    expect(await claimsOf(user)).toEqual({ plan: 'family', entitlements: ['shared-lists'] })
    await createPlans(hub.handle.db).save(FAMILY, clock.now())
  })
})

describe.each(databasesUnderTest())('the OpenID Connect billing scope on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database)
  let client: openid.Configuration

  beforeAll(async () => {
    await createPlans(hub.handle.db).save(FAMILY, new Date())
    const secret = await registerClient(hub.handle, { id: 'family-wiki', name: 'Family wiki', firstParty: true })
    client = await relyingParty(hub.issuer, 'family-wiki', secret)
  })

  const signIn = async (browser: CookieBrowser, scope: string) => {
    const request = await authorizationRequest(client, scope)
    const { left } = await browser.follow(request.url.href)
    return openid.authorizationCodeGrant(client, left as URL, request.checks)
  }

  it('adds plan and entitlements to userinfo with scope billing, read fresh at each answer', async () => {
    expect(client.serverMetadata().scopes_supported).toContain('billing')
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc-billing'))

    const before = await signIn(browser, 'openid billing')
    expect(await openid.fetchUserInfo(client, before.access_token, userId)).toMatchObject({ plan: 'free', entitlements: [] })

    await createSubscriptions(hub.handle.db, 7).setByHand(userId, 'family', null, new Date())
    // The same access token's userinfo answer now says the new plan: claims are read as answered.
    expect(await openid.fetchUserInfo(client, before.access_token, userId)).toMatchObject({ plan: 'family', entitlements: ['shared-lists', 'exports'] })
    const after = await signIn(browser, 'openid billing')
    expect(await openid.fetchUserInfo(client, after.access_token, userId)).toMatchObject({ plan: 'family', entitlements: ['shared-lists', 'exports'] })
  })

  it('names the billing scope on a third-party application’s consent page, in English and Spanish', async () => {
    await registerClient(hub.handle, { id: 'budget-app', name: 'Budget app', public: true })
    const thirdParty = await relyingParty(hub.issuer, 'budget-app', null)
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc-billing-consent'))
    const { page } = await browser.follow((await authorizationRequest(thirdParty, 'openid billing')).url.href)
    expect(page?.html).toContain('Allow Budget app to sign you in?')
    expect(page?.html).toContain('Your plan and what it entitles you to (never your payment details)')
    const spanish = await (await browser.request(page?.url ?? '', { headers: { 'accept-language': 'es' } })).text()
    expect(spanish).toContain('Tu plan y lo que incluye (nunca tus datos de pago)')
  })

  it('gives no billing claim without the scope', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc-no-billing'))
    await createSubscriptions(hub.handle.db, 7).setByHand(userId, 'family', null, new Date())
    const tokens = await signIn(browser, 'openid email')
    expect(tokens.claims()?.plan).toBeUndefined()
    const userinfo = await openid.fetchUserInfo(client, tokens.access_token, userId)
    expect(userinfo.plan).toBeUndefined()
    expect(userinfo.entitlements).toBeUndefined()
  })
})
