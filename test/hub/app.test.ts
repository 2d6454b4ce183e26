import { describe, expect, it } from 'vitest'
import { createMemoryCounterStore } from '../../src/hub/kernel/rate-limit/counter-store.js'
import { capturedLog } from '../helpers/captured-log.js'
import { databasesUnderTest } from '../helpers/databases.js'
import { GOOD_PASSWORD, buildTestHubApp, useHubApp, signUpAndLogIn } from '../helpers/hub-app.js'

describe.each(databasesUnderTest())('hub hub.app on $name', (database) => {
  const hub = useHubApp(database)

  it('answers health', async () => {
    const response = await hub.app.inject({ url: '/api/health' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
  })

  it('keeps successful health probes out of the log, and logs other requests', async () => {
    const log = capturedLog()
    const logged = await buildTestHubApp(hub.handle, { logger: log.logger })
    await logged.inject({ url: '/api/health' })
    await logged.inject({ url: '/api/unknown' })
    await logged.close()
    const completed = log.lines.filter((line) => line.msg === 'request completed')
    expect(completed.map((line) => [line.path, line.statusCode])).toEqual([['/api/unknown', 404]])
  })

  it('answers unknown /api/* routes with 404 {error}', async () => {
    const response = await hub.app.inject({ url: '/api/unknown' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: 'Route GET /api/unknown not found' })
  })

  it('answers malformed JSON with 400 {error}', async () => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'Body is not valid JSON' })
  })

  it('says only "Internal server error" when something breaks', async () => {
    const failing = createMemoryCounterStore()
    failing.increment = async () => {
      throw new Error('counter store is down: redis://secret-host')
    }
    const log = capturedLog()
    const broken = await buildTestHubApp(hub.handle, { counterStore: failing, logger: log.logger })
    const response = await broken.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@example.com', password: GOOD_PASSWORD } })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({ error: 'Internal server error' })
    // The details are in the log, under the request id the response names.
    const requestId = response.headers['x-request-id']
    expect(requestId).toBeTruthy()
    expect(log.lines).toContainEqual(
      expect.objectContaining({ requestId, err: expect.objectContaining({ message: 'counter store is down: redis://secret-host' }) })
    )
    await broken.close()
  })

  it('runs the whole flow: sign up, log in, refresh, SSO token, sign out', async () => {
    const user = await signUpAndLogIn(hub.app)
    expect((await hub.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: user.headers })).statusCode).toBe(200)
    const token = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(token.statusCode).toBe(200)
    expect((await hub.app.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: user.headers })).statusCode).toBe(204)
    expect((await hub.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: user.headers })).statusCode).toBe(401)
  })

  it('documents its routes in OpenAPI', async () => {
    const document = (await hub.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>()
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/auth/signup', '/api/auth/set-cookie', '/api/auth/refresh', '/api/auth/generate-token', '/api/csp-report', '/.well-known/jwks.json', '/api/health', '/api/ready'])
    )
  })
})
