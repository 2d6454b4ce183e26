import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CounterStore, createMemoryCounterStore } from '../../src/hub/kernel/rate-limit/counter-store.js'
import type { App } from '../../src/shared/http/server.js'
import { databasesUnderTest, type TestDatabase } from '../helpers/databases.js'
import { GOOD_PASSWORD, buildTestHubApp, testClock, uniqueEmail } from '../helpers/hub-app.js'

/**
 * Issue 15, item 4: 100,000 junk logins erased a victim's ten failures, since the in-process store
 * evicted its oldest keys and logins refused by the per-IP limit still made per-account keys.
 * A small store stands in for the real one, so thousands of requests overflow it.
 */
const FIFTEEN_MINUTES = 15 * 60 * 1000
const STORE_CAPACITY = 100
const FAILURES_PER_IP = 20

describe.each(databasesUnderTest())('lockout reset by flooding the counter store, on $name', (database) => {
  let handle: TestDatabase
  const clock = testClock()
  const apps: App[] = []
  beforeAll(async () => {
    handle = await database.open()
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    await handle.destroy()
  })

  async function hub(counterStore: CounterStore = createMemoryCounterStore(clock.now, { maxKeys: STORE_CAPACITY })) {
    const app = await buildTestHubApp(handle, {
      now: clock.now,
      counterStore,
      rateLimits: { failedLoginsPerIp: { limit: FAILURES_PER_IP, windowMs: FIFTEEN_MINUTES } }
    })
    apps.push(app)
    return app
  }
  const login = (app: App, email: string, password: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress })
  async function account(app: App) {
    const email = uniqueEmail()
    const created = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD }, remoteAddress: '10.9.9.9' })
    expect(created.statusCode).toBe(200)
    return email
  }
  /** Ten failures from 10.1.0.1: the victim's account is locked. */
  async function lockedOutVictim(app: App) {
    const victim = await account(app)
    for (let attempt = 1; attempt <= 10; attempt++) expect((await login(app, victim, 'wrong password here', '10.1.0.1')).statusCode).toBe(401)
    expect((await login(app, victim, GOOD_PASSWORD, '10.1.0.2')).statusCode).toBe(429)
    return victim
  }
  /** Logins with a fresh junk email each, one after another; answers their statuses. */
  async function flood(app: App, remoteAddress: string, requests: number) {
    const statuses: number[] = []
    for (let request = 0; request < requests; request++) statuses.push((await login(app, uniqueEmail('junk'), 'junk password', remoteAddress)).statusCode)
    return statuses
  }

  it("keeps the victim's failures through a flood from one address far beyond its limit and the store's size, and the flood crowds out nobody", async () => {
    const app = await hub()
    const victim = await lockedOutVictim(app)
    const statuses = await flood(app, '203.0.113.7', 20 * STORE_CAPACITY)
    expect(statuses.filter((status) => status === 401)).toHaveLength(FAILURES_PER_IP)
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 * STORE_CAPACITY - FAILURES_PER_IP)
    expect((await login(app, victim, GOOD_PASSWORD, '10.1.0.3')).statusCode).toBe(429)
    // The refused logins made no account counters, so the store still has room for someone else.
    expect((await login(app, await account(app), GOOD_PASSWORD, '10.1.0.4')).statusCode).toBe(200)
  })

  it('counts no account for a login the per-IP limit refuses', async () => {
    const store = createMemoryCounterStore(clock.now)
    const counted: string[] = []
    const app = await hub({
      ...store,
      increment(key, windowMs) {
        counted.push(key)
        return store.increment(key, windowMs)
      }
    })
    await flood(app, '203.0.113.8', FAILURES_PER_IP)
    expect(counted.filter((key) => key.startsWith('login:account:'))).toHaveLength(FAILURES_PER_IP)
    counted.length = 0
    const refused = await flood(app, '203.0.113.8', 50)
    expect(refused.every((status) => status === 429)).toBe(true)
    // Only the address's own counter: no key for any of the fifty accounts.
    expect(new Set(counted)).toEqual(new Set(['login:ip:203.0.113.8']))
  })

  it("keeps the victim's failures through a flood from many addresses that fills the store, which refuses new counters until windows close", async () => {
    const app = await hub()
    const victim = await lockedOutVictim(app)
    const statuses: number[] = []
    for (let address = 1; address <= 10; address++) statuses.push(...(await flood(app, `198.51.100.${address}`, 200)))
    // From an address the store already counts, so only the account's own counter can refuse.
    expect((await login(app, victim, GOOD_PASSWORD, '10.1.0.1')).statusCode).toBe(429)
    expect(statuses.filter((status) => status === 401).length).toBeLessThan(STORE_CAPACITY)
    // Full of live windows, the store fails closed for an account it does not count yet.
    expect((await login(app, await account(app), GOOD_PASSWORD, '10.1.0.1')).statusCode).toBe(429)
    clock.advance(FIFTEEN_MINUTES)
    expect((await login(app, victim, GOOD_PASSWORD, '10.1.0.5')).statusCode).toBe(200)
  })
})
