import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OUTAGE_RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from '../../src/shared/http/error-handler.js'
import type { App } from '../../src/shared/http/server.js'
import { capturedLog } from '../helpers/captured-log.js'
import { type SignedIn, buildTestHubApp, signUpAndLogIn } from '../helpers/hub-app.js'
import { eventually, postgresUnderTest, useOutageRig } from '../helpers/outage.js'

const postgres = postgresUnderTest()

/** The hub on PostgreSQL when the database goes away and comes back; the shared server runs on. */
describe.runIf(postgres)('the hub through a PostgreSQL outage', () => {
  const log = capturedLog('info')
  const rig = useOutageRig(postgres!, log.logger)
  let app: App
  let user: SignedIn
  beforeAll(async () => {
    app = await buildTestHubApp({ ...rig.handle, db: rig.db }, { logger: log.logger })
    user = await signUpAndLogIn(app)
  })
  afterAll(async () => {
    await app?.close()
  })

  const settings = () => app.inject({ method: 'GET', url: '/api/privacy/settings', headers: user.headers })
  const ready = () => app.inject({ method: 'GET', url: '/api/ready' })
  const linesSaying = (message: string) => log.lines.filter((line) => line.msg === message)

  it('is ready while the database answers', async () => {
    const response = await ready()
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ready' })
  })

  it('logs a connection the server ended, replaces it, and answers again without a restart', async () => {
    expect((await settings()).statusCode).toBe(200)
    expect(await rig.terminateBackends()).toBeGreaterThan(0)
    await eventually(async () => linesSaying('database connection lost; the pool will open a new one').length > 0, 2_000)
    await eventually(async () => (await settings()).statusCode === 200, 2_000)
    expect(linesSaying('database connection lost; the pool will open a new one')[0]).toMatchObject({ level: 40, reason: expect.stringContaining('57P01') })
  })

  it('answers 503 with Retry-After while the database is unreachable, and serves again within 2 s of its return', async () => {
    await rig.proxy.stop()
    try {
      const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'whatever it is' } })
      expect(login.statusCode).toBe(503)
      expect(login.headers['retry-after']).toBe(String(OUTAGE_RETRY_AFTER_SECONDS))
      expect(login.json()).toEqual({ error: SERVICE_UNAVAILABLE })
      await eventually(async () => (await settings()).statusCode === 503, 5_000)

      const notReady = await ready()
      expect(notReady.statusCode).toBe(503)
      expect(notReady.json()).toEqual({ error: 'Not ready: database is down', checks: { database: 'down' } })
      // Liveness stays cheap and true: restarting the hub would not bring the database back.
      expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' })
    } finally {
      await rig.proxy.start()
    }
    await eventually(async () => (await settings()).statusCode === 200, 2_000)
    expect((await ready()).statusCode).toBe(200)
  })

  it('logs each failed request in one short line, without a stack trace', async () => {
    const failures = linesSaying('database unavailable')
    expect(failures.length).toBeGreaterThan(0)
    for (const line of failures) {
      expect(line).toMatchObject({ level: 50, reason: expect.any(String) })
      expect(line).not.toHaveProperty('err')
    }
    expect(log.text).not.toContain('"stack"')
    expect(Math.max(...failures.map((line) => JSON.stringify(line).length))).toBeLessThan(500)
  })
})
