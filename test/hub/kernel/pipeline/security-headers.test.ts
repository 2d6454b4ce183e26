import type { LightMyRequestResponse } from 'fastify'
import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { FOREIGN_ORIGIN, TASKS_ORIGIN, buildTestHubApp, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

/** The headers every hub response must carry, whatever answered it. */
function expectSecurityHeaders(response: LightMyRequestResponse): void {
  const csp = String(response.headers['content-security-policy'])
  const directives = new Map(csp.split(';').map((directive) => {
    const [name = '', ...values] = directive.trim().split(/\s+/)
    return [name, values] as const
  }))
  expect(directives.get('default-src')).toEqual(["'self'"])
  expect(directives.get('object-src')).toEqual(["'none'"])
  expect(directives.get('frame-ancestors')).toEqual(["'none'"])
  expect(directives.get('base-uri')).toEqual(["'none'"])
  expect(directives.get('report-uri')).toEqual(['/api/csp-report'])
  const scriptSrc = directives.get('script-src') ?? []
  expect(scriptSrc).not.toContain("'unsafe-inline'")
  expect(scriptSrc.some((source) => /^'nonce-[0-9a-f]{32}'$/.test(source))).toBe(true)
  expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
  expect(response.headers['x-frame-options']).toBe('DENY')
  expect(response.headers['x-content-type-options']).toBe('nosniff')
  expect(response.headers['referrer-policy']).toBe('no-referrer')
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin')
  expect(response.headers['x-request-id']).toMatch(/\S/)
}

describe.each(databasesUnderTest())('security headers on $name', (database) => {
  const hub = useHubApp(database)

  it.each([
    ['a success', 'GET', '/api/health', {}, 200],
    ['the key set', 'GET', '/.well-known/jwks.json', {}, 200],
    ['an unknown API route', 'GET', '/api/nothing-here', {}, 404],
    ['an unknown page', 'GET', '/no-such-page', {}, 404],
    ['a page', 'GET', '/login', {}, 200],
    ['a protected page sending a signed-out visitor to the login page', 'GET', '/dashboard', {}, 303],
    ['a refusal for a missing cookie', 'GET', '/api/privacy/settings', {}, 401],
    ['a refusal for a foreign origin', 'GET', '/api/health', { origin: FOREIGN_ORIGIN }, 403],
    ['a refusal for a missing CSRF token', 'POST', '/api/auth/refresh', {}, 403],
    ['a validation error', 'POST', '/api/auth/login', {}, 400],
    ['the API documentation page', 'GET', '/docs', {}, 200],
    ['a script of the API documentation', 'GET', '/docs/static/swagger-initializer.js', {}, 200],
    ['a malformed API URL, refused before routing', 'GET', '/api/%', {}, 400],
    ['a malformed page URL, refused before routing', 'GET', '/%zz', {}, 400],
    ['a preflight', 'OPTIONS', '/api/auth/refresh', { origin: TASKS_ORIGIN, 'access-control-request-method': 'POST' }, 204],
    ['an OPTIONS request that is no preflight', 'OPTIONS', '/api/nothing-here', {}, 404]
  ])('are on %s', async (_case, method, url, headers, status) => {
    const response = await hub.app.inject({ method: method as 'GET', url, headers, ...(method === 'POST' ? { payload: {} } : {}) })
    expect(response.statusCode).toBe(status)
    expectSecurityHeaders(response)
  })

  it('are on a 405', async () => {
    const user = await signUpAndLogIn(hub.app)
    const response = await hub.app.inject({ method: 'PUT', url: '/api/auth/refresh', headers: user.headers })
    expect(response.statusCode).toBe(405)
    expectSecurityHeaders(response)
  })

  it('are on a 429', async () => {
    const limited = await buildTestHubApp(hub.handle, { rateLimits: { failedLoginsPerAccount: { limit: 1, windowMs: 60_000 } } })
    const login = () => limited.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'limited@example.com', password: 'wrong password' } })
    expect((await login()).statusCode).toBe(401)
    const response = await login()
    expect(response.statusCode).toBe(429)
    expectSecurityHeaders(response)
    await limited.close()
  })

  it('are on a 500, which says only that it failed', async () => {
    const broken = await database.open()
    await broken.db.schema.dropTable('csp_reports').execute()
    const app = await buildTestHubApp(broken)
    const response = await app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ 'csp-report': { 'document-uri': 'http://localhost:3001/login', 'violated-directive': 'script-src', 'blocked-uri': 'inline' } })
    })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({ error: 'Internal server error' })
    expectSecurityHeaders(response)
    await app.close()
    await broken.destroy()
  })

  it('uses a fresh nonce on every response', async () => {
    const first = await hub.app.inject({ url: '/api/health' })
    const second = await hub.app.inject({ url: '/api/health' })
    expect(first.headers['content-security-policy']).not.toBe(second.headers['content-security-policy'])
  })
})
