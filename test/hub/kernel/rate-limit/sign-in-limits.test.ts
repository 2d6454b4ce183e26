import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CounterStore, createMemoryCounterStore } from '../../../../src/hub/kernel/rate-limit/counter-store.js'
import { createRedisCounterStore } from '../../../../src/hub/kernel/rate-limit/redis-counter-store.js'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest, type TestDatabase } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type TestHubOptions, buildTestHubApp, testClock, uniqueEmail } from '../../../helpers/hub-app.js'
import { connectTestRedis, redisUrlUnderTest } from '../../../helpers/redis.js'

const FIFTEEN_MINUTES = 15 * 60 * 1000
const redisUrl = redisUrlUnderTest()

describe.each(databasesUnderTest())('sign-in limits on $name', (database) => {
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

  async function hub(options: TestHubOptions = {}) {
    const app = await buildTestHubApp(handle, { now: clock.now, counterStore: createMemoryCounterStore(clock.now), ...options })
    apps.push(app)
    return app
  }
  async function account(app: App) {
    const email = uniqueEmail()
    const created = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD }, remoteAddress: '10.9.9.9' })
    expect(created.statusCode).toBe(200)
    return email
  }
  const login = (app: App, email: string, password: string, remoteAddress = '10.2.0.1') =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress })

  it('allows ten failed logins per account in 15 minutes, then 429 with Retry-After, whatever the IP', async () => {
    const app = await hub()
    const email = await account(app)
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await login(app, email, 'wrong password here', `10.3.0.${attempt}`)).statusCode).toBe(401)
    }
    const blocked = await login(app, email, GOOD_PASSWORD, '10.3.1.1')
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json()).toEqual({ error: 'Too many failed sign-ins; try again later' })
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60)
    clock.advance(FIFTEEN_MINUTES)
    expect((await login(app, email, GOOD_PASSWORD)).statusCode).toBe(200)
  })

  const stores: [string, () => CounterStore][] = [
    ['in process', () => createMemoryCounterStore(clock.now)],
    ...(redisUrl ? [['in Redis', () => createRedisCounterStore(connectTestRedis(redisUrl))] as [string, () => CounterStore]] : [])
  ]
  it.each(stores)('counts parallel guesses before checking them (%s): ten 401s, the rest and then the right password 429', async (_name, open) => {
    const store = open()
    const app = await hub({ counterStore: store })
    const email = await account(app)
    const guesses = await Promise.all(Array.from({ length: 30 }, () => login(app, email, 'wrong password here', '10.6.0.1')))
    const statuses = guesses.map((response) => response.statusCode)
    expect(statuses.filter((status) => status === 401)).toHaveLength(10)
    expect(statuses.filter((status) => status === 429)).toHaveLength(20)
    const blocked = await login(app, email, GOOD_PASSWORD, '10.6.0.2')
    expect(blocked.statusCode).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    await store.close()
  })

  it("takes back a successful login's count from its IP, and counts no refused attempt against it", async () => {
    const app = await hub({ rateLimits: { failedLoginsPerIp: { limit: 3, windowMs: FIFTEEN_MINUTES } } })
    const email = await account(app)
    for (let attempt = 1; attempt <= 5; attempt++) expect((await login(app, email, GOOD_PASSWORD, '10.7.0.1')).statusCode).toBe(200)
    const locked = await account(app)
    for (let attempt = 1; attempt <= 10; attempt++) await login(app, locked, 'wrong password here', `10.7.1.${attempt}`)
    for (let attempt = 1; attempt <= 5; attempt++) expect((await login(app, locked, GOOD_PASSWORD, '10.7.0.2')).statusCode).toBe(429)
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await login(app, uniqueEmail('guess'), 'wrong password here', '10.7.0.2')).statusCode).toBe(401)
    }
  })

  it("clears the account's count on a successful login", async () => {
    const app = await hub()
    const email = await account(app)
    for (let attempt = 1; attempt <= 9; attempt++) await login(app, email, 'wrong password here')
    expect((await login(app, email, GOOD_PASSWORD)).statusCode).toBe(200)
    for (let attempt = 1; attempt <= 9; attempt++) {
      expect((await login(app, email, 'wrong password here')).statusCode).toBe(401)
    }
  })

  it('limits failed logins per IP across accounts', async () => {
    const app = await hub({ rateLimits: { failedLoginsPerIp: { limit: 3, windowMs: FIFTEEN_MINUTES } } })
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await login(app, uniqueEmail('guess'), 'wrong password here', '10.4.0.1')).statusCode).toBe(401)
    }
    const blocked = await login(app, uniqueEmail('guess'), 'wrong password here', '10.4.0.1')
    expect(blocked.statusCode).toBe(429)
    expect(blocked.headers['retry-after']).toBeDefined()
    expect((await login(app, uniqueEmail('guess'), 'wrong password here', '10.4.0.2')).statusCode).toBe(401)
  })

  it('limits sign-ups per IP', async () => {
    const app = await hub({ rateLimits: { signupsPerIp: { limit: 2, windowMs: FIFTEEN_MINUTES } } })
    const signup = () =>
      app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: uniqueEmail(), password: GOOD_PASSWORD }, remoteAddress: '10.5.0.1' })
    expect((await signup()).statusCode).toBe(200)
    expect((await signup()).statusCode).toBe(200)
    const blocked = await signup()
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json()).toEqual({ error: 'Too many sign-ups from this address; try again later' })
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
  })

  it.skipIf(!redisUrl)('keeps the counts in Redis when configured, shared by every instance', async () => {
    // Two clients on one key prefix: two hub instances sharing one Redis.
    const firstClient = connectTestRedis(redisUrl ?? '')
    const firstStore = createRedisCounterStore(firstClient)
    const first = await hub({ counterStore: firstStore, rateLimits: { failedLoginsPerAccount: { limit: 2, windowMs: FIFTEEN_MINUTES } } })
    const secondStore = createRedisCounterStore(firstClient.duplicate())
    const second = await hub({ counterStore: secondStore, rateLimits: { failedLoginsPerAccount: { limit: 2, windowMs: FIFTEEN_MINUTES } } })
    const email = await account(first)
    expect((await login(first, email, 'wrong password here')).statusCode).toBe(401)
    expect((await login(second, email, 'wrong password here')).statusCode).toBe(401)
    const blocked = await login(first, email, GOOD_PASSWORD)
    expect(blocked.statusCode).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    await firstStore.close()
    await secondStore.close()
  })
})
