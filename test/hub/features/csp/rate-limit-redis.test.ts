import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { buildTestCspApp } from '../../../helpers/csp-app.js'
import { type TestDatabase, databasesUnderTest } from '../../../helpers/databases.js'
import { connectTestRedis, redisUrlUnderTest } from '../../../helpers/redis.js'

const redisUrl = redisUrlUnderTest()

describe.runIf(redisUrl).each(databasesUnderTest())('CSP report rate limit in Redis on $name', (database) => {
  let handle: TestDatabase
  let redis: Redis
  /** Two instances of the hub sharing one Redis. */
  let instances: App[]

  beforeAll(async () => {
    handle = await database.open()
    redis = connectTestRedis(redisUrl!)
    instances = [
      await buildTestCspApp(handle.db, { maxReportsPerMinute: 2, redis }),
      await buildTestCspApp(handle.db, { maxReportsPerMinute: 2, redis })
    ]
  })
  afterAll(async () => {
    for (const app of instances ?? []) await app.close()
    redis?.disconnect()
    await handle?.destroy()
  })

  const report = (app: App | undefined, ip: string) =>
    app!.inject({
      method: 'POST',
      url: '/api/csp-report',
      remoteAddress: ip,
      headers: { 'content-type': 'application/csp-report' },
      payload: { 'csp-report': { 'document-uri': 'https://hub.example/', 'violated-directive': 'img-src' } }
    })

  it('shares one limit per IP across instances, under hearth:csp:<ip>', async () => {
    const [first, second] = instances
    expect((await report(first, '198.51.100.7')).statusCode).toBe(204)
    expect((await report(second, '198.51.100.7')).statusCode).toBe(204)
    const refused = await report(first, '198.51.100.7')
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({ error: expect.stringMatching(/^Too many CSP reports/) })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(await redis.get('hearth:csp:198.51.100.7')).toBe('3')
    expect((await report(second, '198.51.100.8')).statusCode).toBe(204)
  })
})
