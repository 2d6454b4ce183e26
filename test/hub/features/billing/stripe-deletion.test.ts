import { beforeAll, describe, expect, it } from 'vitest'
import { runHubCli } from '../../../../src/cli/hub-commands.js'
import { NO_STRIPE_TO_CANCEL, SUBSCRIPTION_NOT_CANCELED } from '../../../../src/hub/features/billing/cancel-on-deletion.js'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { STRIPE_UNREACHABLE } from '../../../../src/hub/features/billing/stripe-client.js'
import type { Database } from '../../../../src/shared/database/schema.js'
import type { Kysely } from 'kysely'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { useHubCli } from '../../../helpers/hub-cli.js'
import { freeLoopbackPort } from '../../../helpers/smtp-server.js'
import { STRIPE_TEST_SECRET_KEY, STRIPE_TEST_WEBHOOK_SECRET, stripeBilling, useStripeStandIn } from '../../../helpers/stripe-stand-in.js'

const PRO = { id: 'pro', name: 'Pro', price: 1200, currency: 'EUR', interval: 'month' as const, stripePriceId: 'price_pro', entitlements: ['tasks-unlimited'] }

/** The account's Stripe subscription and customer, as the webhook would have stored them. */
async function subscribe(db: Kysely<Database>, userId: string, subscriptionId: string, status: 'active' | 'canceled' = 'active') {
  const now = new Date().toISOString()
  await db.insertInto('billingCustomers').values({ userId, stripeCustomerId: `cus_${subscriptionId}`, createdAt: now }).execute()
  await db
    .insertInto('billingSubscriptions')
    .values({ userId, planId: 'pro', status, currentPeriodEnd: now, cancelAtPeriodEnd: 0, pastDueSince: null, stripeSubscriptionId: subscriptionId, stripeStateAt: now, updatedAt: now })
    .execute()
}

const accountExists = async (db: Kysely<Database>, userId: string) => (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined

describe.each(databasesUnderTest())('deleting an account with a Stripe subscription on $name', (database) => {
  const stand = useStripeStandIn()
  const hub = useHubApp(database, () => ({ config: { billing: stripeBilling(stand.in.url) } }))
  beforeAll(async () => {
    await createPlans(hub.handle.db).save(PRO, new Date())
  })
  const deleteAccount = (headers: Record<string, string>) => hub.app.inject({ method: 'DELETE', url: '/api/account', headers, payload: { password: GOOD_PASSWORD } })
  const cancelsOf = (subscriptionId: string) => stand.in.calls.filter((call) => call.method === 'DELETE' && call.path === `/v1/subscriptions/${subscriptionId}`)

  it('cancels the live subscription at Stripe, then erases the account', async () => {
    const person = await signUpAndLogIn(hub.app, uniqueEmail('delete-subscribed'))
    const subscriptionId = `sub_live_${person.userId}`
    await subscribe(hub.handle.db, person.userId, subscriptionId)
    stand.in.subscriptions.add(subscriptionId)

    expect((await deleteAccount(person.headers)).statusCode).toBe(204)
    expect(cancelsOf(subscriptionId)).toHaveLength(1)
    expect(stand.in.subscriptions.has(subscriptionId)).toBe(false)
    expect(await accountExists(hub.handle.db, person.userId)).toBe(false)
    expect(await hub.handle.db.selectFrom('billingSubscriptions').select('userId').where('userId', '=', person.userId).execute()).toEqual([])
  })

  it('goes ahead when Stripe no longer knows the subscription, and calls Stripe for no live one', async () => {
    const forgotten = await signUpAndLogIn(hub.app, uniqueEmail('delete-forgotten'))
    await subscribe(hub.handle.db, forgotten.userId, `sub_forgotten_${forgotten.userId}`)
    expect((await deleteAccount(forgotten.headers)).statusCode).toBe(204)
    expect(cancelsOf(`sub_forgotten_${forgotten.userId}`)).toHaveLength(1)
    expect(await accountExists(hub.handle.db, forgotten.userId)).toBe(false)

    const ended = await signUpAndLogIn(hub.app, uniqueEmail('delete-ended'))
    await subscribe(hub.handle.db, ended.userId, `sub_ended_${ended.userId}`, 'canceled')
    const before = stand.in.calls.length
    expect((await deleteAccount(ended.headers)).statusCode).toBe(204)
    expect(stand.in.calls.length).toBe(before)
  })
})

describe.each(databasesUnderTest())('deleting an account while Stripe cannot be reached on $name', (database) => {
  const unreachable = {} as { url: string }
  beforeAll(async () => {
    unreachable.url = `http://127.0.0.1:${await freeLoopbackPort()}`
  })
  const hub = useHubApp(database, () => ({ config: { billing: stripeBilling(unreachable.url) } }))
  const noStripe = useHubApp(database)
  beforeAll(async () => {
    await createPlans(hub.handle.db).save(PRO, new Date())
    await createPlans(noStripe.handle.db).save(PRO, new Date())
  })

  it('answers 503 and erases nothing: the account, its sessions and its subscription stay', async () => {
    const person = await signUpAndLogIn(hub.app, uniqueEmail('delete-unreachable'))
    await subscribe(hub.handle.db, person.userId, `sub_${person.userId}`)
    const response = await hub.app.inject({ method: 'DELETE', url: '/api/account', headers: person.headers, payload: { password: GOOD_PASSWORD } })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({ error: SUBSCRIPTION_NOT_CANCELED })
    expect(await accountExists(hub.handle.db, person.userId)).toBe(true)
    expect((await hub.app.inject({ url: '/api/account/sessions', headers: person.headers })).statusCode).toBe(200)
    expect(await hub.handle.db.selectFrom('billingSubscriptions').select('status').where('userId', '=', person.userId).execute()).toEqual([{ status: 'active' }])
  })

  it('answers 503 to a checkout rather than 500', async () => {
    const person = await signUpAndLogIn(hub.app, uniqueEmail('checkout-unreachable'))
    const response = await hub.app.inject({ method: 'POST', url: '/api/billing/checkout', headers: person.headers, payload: { plan: 'pro' } })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({ error: STRIPE_UNREACHABLE })
  })

  it('refuses, without Stripe configured, to erase an account whose Stripe subscription would go on billing', async () => {
    const person = await signUpAndLogIn(noStripe.app, uniqueEmail('delete-no-stripe'))
    await subscribe(noStripe.handle.db, person.userId, `sub_${person.userId}`)
    const response = await noStripe.app.inject({ method: 'DELETE', url: '/api/account', headers: person.headers, payload: { password: GOOD_PASSWORD } })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({ error: NO_STRIPE_TO_CANCEL })
    expect(await accountExists(noStripe.handle.db, person.userId)).toBe(true)
  })
})

describe('hub CLI: users:delete with a Stripe subscription', () => {
  const stand = useStripeStandIn()
  const { output, io, withDatabase } = useHubCli()
  const stripeEnv = (url: string) => ({ STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY, STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET, STRIPE_API_URL: url })
  const createSubscribed = async (subscriptionId: string) => {
    expect(await runHubCli(['users:create', '--email', 'ada@example.com'], io(GOOD_PASSWORD))).toBe(0)
    const userId = /with id ([0-9a-f-]{36})/.exec(output.out[0] ?? '')?.[1] ?? ''
    await withDatabase(async (db) => {
      await createPlans(db).save(PRO, new Date())
      await subscribe(db, userId, subscriptionId)
    })
    return userId
  }

  it('cancels the subscription at Stripe first, then erases the account', async () => {
    const userId = await createSubscribed('sub_cli')
    stand.in.subscriptions.add('sub_cli')
    expect(await runHubCli(['users:delete', '--email', 'ada@example.com'], io('', stripeEnv(stand.in.url)))).toBe(0)
    expect(stand.in.calls.filter((call) => call.method === 'DELETE' && call.path === '/v1/subscriptions/sub_cli')).toHaveLength(1)
    expect(await withDatabase((db) => accountExists(db, userId))).toBe(false)
  })

  it('erases nothing and exits 1 when Stripe cannot be reached', async () => {
    const userId = await createSubscribed('sub_cli_unreachable')
    const url = `http://127.0.0.1:${await freeLoopbackPort()}`
    expect(await runHubCli(['users:delete', '--email', 'ada@example.com'], io('', stripeEnv(url)))).toBe(1)
    expect(output.err).toEqual([SUBSCRIPTION_NOT_CANCELED])
    expect(await withDatabase((db) => accountExists(db, userId))).toBe(true)
  })
})
