import { decodeJwt } from 'jose'
import * as openid from 'openid-client'
import { beforeAll, describe, expect, it } from 'vitest'
import { NO_GROUP_PLAN, NO_SUBSCRIPTION_TO_SHARE, NO_SUCH_GROUP, createGroupPlans } from '../../../../src/hub/features/billing/group-plans.js'
import { NO_PAYMENTS } from '../../../../src/hub/features/billing/stripe-routes.js'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { createSubscriptions } from '../../../../src/hub/features/billing/subscriptions.js'
import type { App } from '../../../../src/shared/http/server.js'
import { anonymousHeaders } from '../../../helpers/account-mail.js'
import { forgetRecentSignIns, postForm, signUpAdministrator } from '../../../helpers/administrators.js'
import { FAMILY_PLAN, PRO_PLAN } from '../../../helpers/billing.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, logIn, pageCookies, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { CookieBrowser, authorizationRequest, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'
import { signedWebhook, stripeBilling, useStripeStandIn } from '../../../helpers/stripe-stand-in.js'

const DAY_MS = 86_400_000
const EXTRAS = { id: 'extras', name: 'Extras', price: null, currency: null, interval: null, stripePriceId: null, entitlements: ['exports', 'photos'] }

/** Makes a group through the admin API and puts these accounts in it. */
async function groupWith(app: App, admin: SignedIn, name: string, members: SignedIn[]): Promise<string> {
  const made = await app.inject({ method: 'POST', url: '/api/admin/groups', headers: admin.headers, payload: { name } })
  expect(made.statusCode, made.body).toBe(201)
  const { id } = made.json<{ id: string }>()
  for (const member of members) {
    const added = await app.inject({ method: 'PUT', url: `/api/admin/groups/${id}/members/${member.userId}`, headers: admin.headers })
    expect(added.statusCode, added.body).toBe(204)
  }
  return id
}

let groupCount = 0
const groupName = (label: string) => `${label}-${process.pid}-${++groupCount}`

describe.each(databasesUnderTest())('the household plan by hand on $name', (database) => {
  const clock = testClock(new Date())
  const hub = useHubApp(database, () => ({ now: clock.now, config: { billing: { graceDays: 3, stripe: undefined } } }))
  beforeAll(async () => {
    for (const plan of [FAMILY_PLAN, EXTRAS]) await createPlans(hub.handle.db).save(plan, clock.now())
  })

  const claimsOf = async (user: SignedIn) => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(response.statusCode, response.body).toBe(200)
    const { plan, entitlements } = decodeJwt(response.json<{ token: string }>().token)
    return { plan, entitlements }
  }
  const billingOf = async (user: SignedIn) => {
    const response = await hub.app.inject({ method: 'GET', url: '/api/billing', headers: user.headers })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<Record<string, unknown>>()
  }
  const setGroupPlan = (admin: SignedIn, groupId: string, payload: object) => hub.app.inject({ method: 'PUT', url: `/api/admin/groups/${groupId}/plan`, headers: admin.headers, payload })

  it('gives every member the union of their own and their group’s entitlements, in SSO tokens and GET /api/billing', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-member'))
    const outsider = await signUpAndLogIn(hub.app, uniqueEmail('household-outsider'))
    const name = groupName('family')
    const groupId = await groupWith(hub.app, admin, name, [member])

    const set = await setGroupPlan(admin, groupId, { plan: 'extras' })
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json()).toEqual({
      group: { id: groupId, name },
      plan: { id: 'extras', name: 'Extras', entitlements: ['exports', 'photos'] },
      source: 'by-hand',
      paidBy: null,
      until: null,
      inEffect: true,
      updatedAt: clock.now().toISOString()
    })

    // No plan of their own: `plan` names the group's.
    expect(await claimsOf(member)).toEqual({ plan: 'extras', entitlements: ['exports', 'photos'] })
    expect(await claimsOf(outsider)).toEqual({ plan: 'free', entitlements: [] })

    // Their own plan too: `plan` is their own, the entitlements the union, each once, their own first.
    await createSubscriptions(hub.handle.db, 3).setByHand(member.userId, 'family', null, clock.now())
    expect(await claimsOf(member)).toEqual({ plan: 'family', entitlements: ['shared-lists', 'exports', 'photos'] })
    expect(await billingOf(member)).toMatchObject({
      plan: { id: 'family', name: 'Family' },
      entitlements: ['shared-lists', 'exports', 'photos'],
      entitlementSources: [
        { entitlement: 'shared-lists', from: 'own', plan: 'family' },
        { entitlement: 'exports', from: 'own', plan: 'family' },
        { entitlement: 'exports', from: 'group', plan: 'extras', group: { id: groupId, name } },
        { entitlement: 'photos', from: 'group', plan: 'extras', group: { id: groupId, name } }
      ],
      groupPlans: [{ group: { id: groupId, name }, plan: { id: 'extras', name: 'Extras' }, source: 'by-hand', until: null }],
      household: null
    })
    expect(await billingOf(outsider)).toMatchObject({ entitlements: [], entitlementSources: [], groupPlans: [] })

    // The member's trail says so, naming the administrator.
    const events = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', member.userId).where('type', '=', 'billing.group-plan.changed').execute()
    expect(events.map((event) => JSON.parse(event.detail) as unknown)).toEqual([{ groupId, group: name, plan: 'extras', source: 'administrator', by: admin.userId }])
  })

  it('shows on /billing where each entitlement comes from, in English and Spanish', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-page'))
    const name = groupName('page')
    const groupId = await groupWith(hub.app, admin, name, [member])
    expect((await setGroupPlan(admin, groupId, { plan: 'extras' })).statusCode).toBe(200)
    await createSubscriptions(hub.handle.db, 3).setByHand(member.userId, 'family', null, clock.now())
    const page = async (lang: string) => {
      const response = await hub.app.inject({ method: 'GET', url: '/billing', headers: pageCookies(member, { lang }) })
      expect(response.statusCode).toBe(200)
      return response.body
    }
    const english = await page('en')
    expect(english).toContain(`<code>exports</code> <span class="hint">from your plan, the plan Extras of the group ${name}</span>`)
    expect(english).toContain(`<code>photos</code> <span class="hint">from the plan Extras of the group ${name}</span>`)
    expect(english).toContain(`The group ${name} has the plan Extras: you have what it includes, beside your own plan.`)
    const spanish = await page('es')
    expect(spanish).toContain(`<code>exports</code> <span class="hint">de tu plan, el plan Extras del grupo ${name}</span>`)
    expect(spanish).toContain(`El grupo ${name} tiene el plan Extras: tienes lo que incluye, además de tu propio plan.`)
  })

  it('takes the group’s entitlements away at once when the member leaves the group or the group is deleted', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-leaves'))
    const other = await signUpAndLogIn(hub.app, uniqueEmail('household-stays'))
    const groupId = await groupWith(hub.app, admin, groupName('leaving'), [member, other])
    expect((await setGroupPlan(admin, groupId, { plan: 'extras' })).statusCode).toBe(200)
    expect(await claimsOf(member)).toEqual({ plan: 'extras', entitlements: ['exports', 'photos'] })

    const removed = await hub.app.inject({ method: 'DELETE', url: `/api/admin/groups/${groupId}/members/${member.userId}`, headers: admin.headers })
    expect(removed.statusCode).toBe(204)
    // The same session's next token: nothing is cached.
    expect(await claimsOf(member)).toEqual({ plan: 'free', entitlements: [] })
    expect(await claimsOf(other)).toEqual({ plan: 'extras', entitlements: ['exports', 'photos'] })

    const deleted = await hub.app.inject({ method: 'DELETE', url: `/api/admin/groups/${groupId}`, headers: admin.headers })
    expect(deleted.statusCode).toBe(204)
    expect(await claimsOf(other)).toEqual({ plan: 'free', entitlements: [] })
    expect(await hub.handle.db.selectFrom('billingGroupPlans').select('groupId').where('groupId', '=', groupId).execute()).toEqual([])
  })

  it('ends a group plan at its date, reads, replaces and removes it, and refuses what cannot be', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-until'))
    const groupId = await groupWith(hub.app, admin, groupName('until'), [member])
    const plan = (as = admin) => hub.app.inject({ method: 'GET', url: `/api/admin/groups/${groupId}/plan`, headers: as.headers })

    expect((await plan()).statusCode).toBe(404)
    expect((await plan()).json()).toEqual({ error: NO_GROUP_PLAN })
    const missing = await hub.app.inject({ method: 'GET', url: '/api/admin/groups/nope/plan', headers: admin.headers })
    expect([missing.statusCode, missing.json()]).toEqual([404, { error: NO_SUCH_GROUP }])
    const noGroup = await setGroupPlan(admin, 'nope', { plan: 'extras' })
    expect([noGroup.statusCode, noGroup.json()]).toEqual([404, { error: NO_SUCH_GROUP }])
    const unknownPlan = await setGroupPlan(admin, groupId, { plan: 'gold' })
    expect([unknownPlan.statusCode, unknownPlan.json()]).toEqual([400, { error: 'No plan has the id gold (npm run hub -- plans:list)' }])
    const past = await setGroupPlan(admin, groupId, { plan: 'extras', until: new Date(clock.now().getTime() - 1000).toISOString() })
    expect([past.statusCode, past.json()]).toEqual([400, { error: '--until must be in the future' }])

    const until = new Date(clock.now().getTime() + DAY_MS).toISOString()
    expect((await setGroupPlan(admin, groupId, { plan: 'family', until })).statusCode).toBe(200)
    expect(await claimsOf(member)).toEqual({ plan: 'family', entitlements: ['shared-lists', 'exports'] })
    // Replaced: one plan per group.
    expect((await setGroupPlan(admin, groupId, { plan: 'extras', until })).statusCode).toBe(200)
    expect((await plan()).json()).toMatchObject({ plan: { id: 'extras' }, until, inEffect: true })
    expect(await claimsOf(member)).toEqual({ plan: 'extras', entitlements: ['exports', 'photos'] })

    // A plan a group has cannot be removed from the hub.
    await expect(createPlans(hub.handle.db).remove('extras')).rejects.toThrow(/^\d+ group\(s\) have the plan extras: give them another first \(billing:set --group\)$/)

    clock.advance(DAY_MS)
    const fresh = await logIn(hub.app, member.email)
    expect(await claimsOf(fresh)).toEqual({ plan: 'free', entitlements: [] })
    // The auth cookie lives minutes: a day on, the administrator signs in afresh.
    const adminNow = await logIn(hub.app, admin.email)
    expect((await plan(adminNow)).json()).toMatchObject({ inEffect: false })

    const gone = await hub.app.inject({ method: 'DELETE', url: `/api/admin/groups/${groupId}/plan`, headers: adminNow.headers })
    expect(gone.statusCode).toBe(204)
    const again = await hub.app.inject({ method: 'DELETE', url: `/api/admin/groups/${groupId}/plan`, headers: adminNow.headers })
    expect([again.statusCode, again.json()]).toEqual([404, { error: NO_GROUP_PLAN }])
  })

  it('answers 401 signed out, 403 to a member, and 401 to an administrator without a recent sign-in for a change', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-not-admin'))
    const groupId = await groupWith(hub.app, admin, groupName('guarded'), [])
    const routes = [
      { method: 'GET' as const, url: `/api/admin/groups/${groupId}/plan` },
      { method: 'PUT' as const, url: `/api/admin/groups/${groupId}/plan`, payload: { plan: 'extras' } },
      { method: 'DELETE' as const, url: `/api/admin/groups/${groupId}/plan` },
      { method: 'POST' as const, url: '/api/billing/household', payload: { groupId } }
    ]
    for (const route of routes) {
      const signedOut = await hub.app.inject({ ...route, headers: await anonymousHeaders(hub.app) })
      expect(signedOut.statusCode, `${route.method} ${route.url}`).toBe(401)
      const asMember = await hub.app.inject({ ...route, headers: member.headers })
      expect(asMember.statusCode, `${route.method} ${route.url}`).toBe(403)
      expect(asMember.json()).toEqual({ error: expect.any(String) })
    }
    // Without Stripe, the household route says the hub takes no payments.
    const household = await hub.app.inject({ ...routes[3], headers: admin.headers })
    expect([household.statusCode, household.json()]).toEqual([404, { error: NO_PAYMENTS }])

    await forgetRecentSignIns(hub.handle.db)
    for (const route of routes.slice(1, 3)) {
      const stale = await hub.app.inject({ ...route, headers: admin.headers })
      expect(stale.statusCode, `${route.method} ${route.url}`).toBe(401)
      expect(stale.headers['www-authenticate']).toMatch(/insufficient_user_authentication/)
    }
    // Reading needs no recent sign-in.
    expect((await hub.app.inject({ ...routes[0], headers: admin.headers })).statusCode).toBe(404)
  })
})

let eventCount = 0
const seconds = (at: Date) => Math.floor(at.getTime() / 1000)
function stripeEvent(type: string, object: object, at: Date) {
  return { id: `evt_household_${process.pid}_${++eventCount}`, object: 'event', api_version: '2026-10-28.endive', created: seconds(at), type, livemode: false, data: { object } }
}
function subscription(id: string, customer: string, status: string, periodEnd: Date, price = 'price_pro') {
  return {
    id,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: false,
    metadata: {},
    items: { object: 'list', data: [{ id: `si_${id}`, object: 'subscription_item', price: { id: price, object: 'price' }, current_period_end: seconds(periodEnd) }] }
  }
}

describe.each(databasesUnderTest())('an administrator’s subscription paying for a group on $name', (database) => {
  const clock = testClock()
  const stand = useStripeStandIn()
  const hub = useHubApp(database, () => ({ now: clock.now, config: { billing: stripeBilling(stand.in.url) } }))
  const TEAM = { ...PRO_PLAN, id: 'team', name: 'Team', stripePriceId: 'price_team', entitlements: ['tasks-unlimited', 'shared-lists'] }
  beforeAll(async () => {
    for (const plan of [PRO_PLAN, TEAM]) await createPlans(hub.handle.db).save(plan, clock.now())
  })

  const deliver = async (event: object) => {
    const { payload, headers } = signedWebhook(event, clock.now())
    const response = await hub.app.inject({ method: 'POST', url: '/api/billing/webhook', headers, payload })
    expect(response.statusCode, response.body).toBe(200)
  }
  const claimsOf = async (user: SignedIn) => {
    const session = await logIn(hub.app, user.email)
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: session.headers, payload: { audience: 'tasks' } })
    expect(response.statusCode, response.body).toBe(200)
    const { plan, entitlements } = decodeJwt(response.json<{ token: string }>().token)
    return { plan, entitlements }
  }
  /** An administrator whose Stripe subscription to Pro is active, as Checkout and the webhook leave it. */
  const subscribedAdministrator = async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const customer = `cus_household_${admin.userId}`
    await hub.handle.db.insertInto('billingCustomers').values({ userId: admin.userId, stripeCustomerId: customer, createdAt: clock.now().toISOString() }).execute()
    const sub = { id: `sub_household_${admin.userId}`, customer }
    await deliver(stripeEvent('customer.subscription.created', subscription(sub.id, customer, 'active', new Date(clock.now().getTime() + 30 * DAY_MS)), clock.now()))
    return { admin, sub }
  }
  const attach = (admin: SignedIn, groupId: string) => hub.app.inject({ method: 'POST', url: '/api/billing/household', headers: admin.headers, payload: { groupId } })

  it('lets one payment cover the household: the group has the subscription’s plan, follows its changes and loses it when Stripe cancels it', async () => {
    const { admin, sub } = await subscribedAdministrator()
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-paid'))
    const name = groupName('paid')
    const groupId = await groupWith(hub.app, admin, name, [member])

    const attached = await attach(admin, groupId)
    expect(attached.statusCode, attached.body).toBe(200)
    expect(attached.json()).toMatchObject({ group: { id: groupId, name }, plan: { id: 'pro' }, source: 'subscription', paidBy: admin.userId, until: null, inEffect: true })
    expect(await claimsOf(member)).toEqual({ plan: 'pro', entitlements: ['tasks-unlimited'] })
    const adminBilling = await hub.app.inject({ method: 'GET', url: '/api/billing', headers: admin.headers })
    expect(adminBilling.json()).toMatchObject({ household: { group: { id: groupId, name } } })
    const adminPage = await hub.app.inject({ method: 'GET', url: '/billing', headers: pageCookies(admin, { lang: 'es' }) })
    expect(adminPage.body).toContain(`Tu suscripción paga el plan del grupo ${name}: sus miembros tienen lo que incluye tu plan.`)
    const memberBilling = await hub.app.inject({ method: 'GET', url: '/api/billing', headers: (await logIn(hub.app, member.email)).headers })
    expect(memberBilling.json()).toMatchObject({
      entitlementSources: [{ entitlement: 'tasks-unlimited', from: 'group', plan: 'pro', group: { id: groupId, name } }],
      groupPlans: [{ group: { id: groupId, name }, plan: { id: 'pro', name: 'Pro' }, source: 'subscription', until: null }]
    })

    // The administrator moves to Team in Stripe's portal: the household moves with them.
    clock.advance(DAY_MS)
    const periodEnd = new Date(clock.now().getTime() + 30 * DAY_MS)
    await deliver(stripeEvent('customer.subscription.updated', subscription(sub.id, `cus_household_${admin.userId}`, 'active', periodEnd, 'price_team'), clock.now()))
    expect(await claimsOf(member)).toEqual({ plan: 'team', entitlements: ['tasks-unlimited', 'shared-lists'] })

    clock.advance(DAY_MS)
    await deliver(stripeEvent('customer.subscription.deleted', subscription(sub.id, `cus_household_${admin.userId}`, 'canceled', periodEnd, 'price_team'), clock.now()))
    expect(await claimsOf(member)).toEqual({ plan: 'free', entitlements: [] })
    expect(await hub.handle.db.selectFrom('billingGroupPlans').select('groupId').where('groupId', '=', groupId).execute()).toEqual([])
    const trail = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', member.userId).where('type', '=', 'billing.group-plan.changed').orderBy('createdAt').execute()
    expect(trail.map((event) => JSON.parse(event.detail) as unknown)).toEqual([
      { groupId, group: name, plan: 'pro', source: 'subscription', by: admin.userId },
      { groupId, group: name, plan: 'free', source: 'stripe', by: admin.userId }
    ])
  })

  it('lapses with the subscription past its grace period, covers one group at a time, and refuses an administrator with nothing to share', async () => {
    const { admin, sub } = await subscribedAdministrator()
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-lapse'))
    const first = await groupWith(hub.app, admin, groupName('first'), [member])
    const second = await groupWith(hub.app, admin, groupName('second'), [])
    expect((await attach(admin, first)).statusCode).toBe(200)
    expect(await claimsOf(member)).toEqual({ plan: 'pro', entitlements: ['tasks-unlimited'] })

    // Moved to the second group: the first loses it.
    expect((await attach(admin, second)).statusCode).toBe(200)
    expect(await claimsOf(member)).toEqual({ plan: 'free', entitlements: [] })
    expect((await attach(admin, first)).statusCode).toBe(200)

    // Past due: the household keeps it for the grace period (7 days), as the subscriber does, then not.
    clock.advance(DAY_MS)
    await deliver(stripeEvent('customer.subscription.updated', subscription(sub.id, `cus_household_${admin.userId}`, 'past_due', new Date(clock.now().getTime() + 30 * DAY_MS)), clock.now()))
    expect(await claimsOf(member)).toEqual({ plan: 'pro', entitlements: ['tasks-unlimited'] })
    clock.advance(7 * DAY_MS)
    expect(await claimsOf(member)).toEqual({ plan: 'free', entitlements: [] })

    const unknownGroup = await attach(await logIn(hub.app, admin.email), 'nope')
    expect([unknownGroup.statusCode, unknownGroup.json()]).toEqual([404, { error: NO_SUCH_GROUP }])
    const unpaid = await signUpAdministrator(hub.app, hub.handle.db)
    const refused = await attach(unpaid, first)
    expect([refused.statusCode, refused.json()]).toEqual([409, { error: NO_SUBSCRIPTION_TO_SHARE }])
    // A lapsed subscription has nothing to share either.
    const lapsed = await attach(await logIn(hub.app, admin.email), second)
    expect([lapsed.statusCode, lapsed.json()]).toEqual([409, { error: NO_SUBSCRIPTION_TO_SHARE }])
  })

  it('ends the household plan when the paying administrator’s account is deleted', async () => {
    const { admin, sub } = await subscribedAdministrator()
    stand.in.subscriptions.add(sub.id)
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-deleted'))
    const groupId = await groupWith(hub.app, admin, groupName('orphan'), [member])
    expect((await attach(admin, groupId)).statusCode).toBe(200)
    const deleted = await hub.app.inject({ method: 'DELETE', url: '/api/account', headers: admin.headers, payload: { password: GOOD_PASSWORD } })
    expect(deleted.statusCode, deleted.body).toBe(204)
    expect(await hub.handle.db.selectFrom('billingGroupPlans').select('groupId').where('groupId', '=', groupId).execute()).toEqual([])
    expect(await claimsOf(member)).toEqual({ plan: 'free', entitlements: [] })
  })

  it('offers the administrator a plain form on /billing that does the same, without script', async () => {
    const { admin } = await subscribedAdministrator()
    const member = await signUpAndLogIn(hub.app, uniqueEmail('household-form'))
    const name = groupName('form')
    const groupId = await groupWith(hub.app, admin, name, [member])

    const page = await hub.app.inject({ method: 'GET', url: '/billing', headers: pageCookies(admin, { lang: 'en' }) })
    expect(page.body).toContain('<form method="post" action="/billing/household">')
    expect(page.body).toContain(`<option value="${groupId}">${name}</option>`)
    // A member sees no such form.
    const memberPage = await hub.app.inject({ method: 'GET', url: '/billing', headers: pageCookies(member, { lang: 'en' }) })
    expect(memberPage.body).not.toContain('action="/billing/household"')

    const sent = await postForm(hub.app, admin, '/billing/household', { groupId })
    expect([sent.statusCode, sent.headers.location]).toEqual([303, '/billing?notice=household'])
    expect(await claimsOf(member)).toEqual({ plan: 'pro', entitlements: ['tasks-unlimited'] })
    const after = await hub.app.inject({ method: 'GET', url: '/billing?notice=household', headers: pageCookies(admin, { lang: 'es' }) })
    expect(after.body).toContain(`Tu suscripción paga ahora por el grupo ${name}.`)

    const unpaid = await signUpAdministrator(hub.app, hub.handle.db)
    const refused = await postForm(hub.app, unpaid, '/billing/household', { groupId })
    expect([refused.statusCode, refused.headers.location]).toEqual([303, '/billing?error=nothing-to-share'])
    const refusedPage = await hub.app.inject({ method: 'GET', url: '/billing?error=nothing-to-share', headers: pageCookies(unpaid, { lang: 'en' }) })
    expect(refusedPage.body).toContain('You have no active subscription to share: subscribe to a plan first.')
    expect((await postForm(hub.app, member, '/billing/household', { groupId })).statusCode).toBe(403)

    await forgetRecentSignIns(hub.handle.db)
    const stale = await postForm(hub.app, admin, '/billing/household', { groupId })
    expect([stale.statusCode, stale.headers.location]).toEqual([303, '/admin/confirm?next=%2Fbilling'])
  })

  it('needs a recent sign-in to attach a subscription', async () => {
    const { admin } = await subscribedAdministrator()
    const groupId = await groupWith(hub.app, admin, groupName('stale'), [])
    await forgetRecentSignIns(hub.handle.db)
    const stale = await attach(admin, groupId)
    expect(stale.statusCode).toBe(401)
    expect(stale.headers['www-authenticate']).toBeDefined()
    expect(await createGroupPlans(hub.handle.db, 7).view(groupId, clock.now())).toBeUndefined()
  })
})

describe.each(databasesUnderTest())('the household plan over OpenID Connect on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database)
  let client: openid.Configuration

  beforeAll(async () => {
    for (const plan of [FAMILY_PLAN, EXTRAS]) await createPlans(hub.handle.db).save(plan, new Date())
    const secret = await registerClient(hub.handle, { id: 'household-wiki', name: 'Household wiki', firstParty: true })
    client = await relyingParty(hub.issuer, 'household-wiki', secret)
  })

  it('puts the union of own and group entitlements in userinfo with scope billing, read fresh at each answer', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc-household'))
    const now = new Date()
    await createSubscriptions(hub.handle.db, 7).setByHand(userId, 'family', null, now)
    const groupId = `grp_${userId}`
    await hub.handle.db.insertInto('groups').values({ id: groupId, name: groupName('oidc'), nameKey: groupName('oidc-key'), description: '', createdAt: now.toISOString(), updatedAt: now.toISOString() }).execute()
    await hub.handle.db.insertInto('groupMembers').values({ groupId, userId, addedAt: now.toISOString() }).execute()
    await createGroupPlans(hub.handle.db, 7).setByHand(groupId, 'extras', null, null, now)

    const request = await authorizationRequest(client, 'openid billing')
    const { left } = await browser.follow(request.url.href)
    const tokens = await openid.authorizationCodeGrant(client, left as URL, request.checks)
    const union = { plan: 'family', entitlements: ['shared-lists', 'exports', 'photos'] }
    expect(await openid.fetchUserInfo(client, tokens.access_token, userId)).toMatchObject(union)

    // Out of the group: the same access token's next userinfo answer has only their own.
    await hub.handle.db.deleteFrom('groupMembers').where('groupId', '=', groupId).where('userId', '=', userId).execute()
    expect(await openid.fetchUserInfo(client, tokens.access_token, userId)).toMatchObject({ plan: 'family', entitlements: ['shared-lists', 'exports'] })
  })
})
