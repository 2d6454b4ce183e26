import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { capturedLog } from '../../../helpers/captured-log.js'
import { type TestDatabase, databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, buildTestHubApp, uniqueEmail } from '../../../helpers/hub-app.js'
import { eventually } from '../../../helpers/outage.js'
import { redisUrlUnderTest } from '../../../helpers/redis.js'
import { type OwnRedisServer, ownRedisServer } from '../../../helpers/redis-server.js'

const redisWanted = redisUrlUnderTest() !== undefined
const [sqlite] = databasesUnderTest()

/** Sign-in with REDIS_URL set when that Redis dies and comes back: a server of the test's own. */
describe.runIf(redisWanted)('sign-in through a Redis outage', () => {
  const log = capturedLog('info')
  const consoleErrors = vi.spyOn(console, 'error')
  let redis: OwnRedisServer
  let handle: TestDatabase
  let app: App
  const email = uniqueEmail('redis-outage')
  beforeAll(async () => {
    redis = await ownRedisServer()
    handle = await sqlite!.open()
    app = await buildTestHubApp(handle, {
      config: { redisUrl: redis.url },
      logger: log.logger,
      rateLimits: { failedLoginsPerAccount: { limit: 3, windowMs: 60_000 } }
    })
    await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD } })
  })
  afterAll(async () => {
    await app?.close()
    await handle?.destroy()
    await redis?.stop()
    consoleErrors.mockRestore()
  })

  const login = (password: string) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
  const ready = () => app.inject({ method: 'GET', url: '/api/ready' })
  const linesSaying = (start: string) => log.lines.filter((line) => String(line.msg).startsWith(start))

  it('is ready, Redis included, while Redis answers', async () => {
    expect((await ready()).json()).toEqual({ status: 'ready' })
    expect((await login(GOOD_PASSWORD)).statusCode).toBe(200)
  })

  it('keeps sign-in possible and limited while Redis is down, and says so once', async () => {
    await redis.stop()
    expect((await login(GOOD_PASSWORD)).statusCode).toBe(200)
    for (let attempt = 1; attempt <= 3; attempt++) expect((await login('not the password at all')).statusCode).toBe(401)
    const limited = await login(GOOD_PASSWORD)
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBeDefined()

    const notReady = await ready()
    expect(notReady.statusCode).toBe(503)
    expect(notReady.json()).toEqual({ error: 'Not ready: redis is down', checks: { database: 'up', redis: 'down' } })
    expect(linesSaying('Redis is unreachable')).toEqual([expect.objectContaining({ level: 40, reason: expect.any(String) })])
  })

  it('shares its counters again once Redis is back, and says so once', async () => {
    await redis.start()
    await eventually(async () => (await ready()).statusCode === 200, 5_000)
    // A fresh Redis holds no failures: the next attempt that reaches it succeeds.
    await eventually(async () => (await login(GOOD_PASSWORD)).statusCode === 200, 5_000)
    expect(linesSaying('Redis answers again')).toEqual([expect.objectContaining({ level: 30 })])
    expect(linesSaying('Redis is unreachable')).toHaveLength(1)
  })

  it('never writes plain-text lines beside the JSON log', () => {
    expect(consoleErrors.mock.calls.filter((call) => String(call[0]).includes('[ioredis]'))).toEqual([])
  })
})
