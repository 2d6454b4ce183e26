import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { FOREIGN_ORIGIN, HUB_ORIGIN, TASKS_ORIGIN, buildTestHubApp, useHubApp } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('origin check and CORS on $name', (database) => {
  const hub = useHubApp(database)

  const preflight = (origin: string, url = '/api/auth/refresh') =>
    hub.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-csrf-token' }
    })

  it.each([TASKS_ORIGIN, HUB_ORIGIN])('answers a preflight from an allowed origin (%s) with 204 and credentials', async (origin) => {
    const response = await preflight(origin)
    expect(response.statusCode).toBe(204)
    expect(response.headers['access-control-allow-origin']).toBe(origin)
    expect(response.headers['access-control-allow-credentials']).toBe('true')
    expect(String(response.headers['access-control-allow-headers'])).toContain('x-csrf-token')
    expect(String(response.headers['access-control-allow-methods'])).toContain('DELETE')
    expect(String(response.headers.vary)).toContain('Origin')
    expect(response.headers['access-control-max-age']).toBe('600')
    expect(response.body).toBe('')
  })

  it('refuses a preflight from another origin: 403 without CORS headers', async () => {
    const response = await preflight(FOREIGN_ORIGIN)
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: 'Origin not allowed' })
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
  })

  it.each([
    ['another site', FOREIGN_ORIGIN],
    ['an allowed host on another scheme', 'https://localhost:3000'],
    ['an allowed host on another port', 'http://localhost:3002'],
    ['an opaque origin', 'null']
  ])('refuses /api/* requests from %s: 403', async (_case, origin) => {
    const response = await hub.app.inject({ url: '/api/health', headers: { origin } })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: 'Origin not allowed' })
  })

  it('gives allowed origins CORS with credentials and Vary: Origin', async () => {
    const response = await hub.app.inject({ url: '/api/health', headers: { origin: TASKS_ORIGIN } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['access-control-allow-origin']).toBe(TASKS_ORIGIN)
    expect(response.headers['access-control-allow-credentials']).toBe('true')
    expect(String(response.headers.vary)).toContain('Origin')
  })

  it('lets requests without an Origin header through', async () => {
    expect((await hub.app.inject({ url: '/api/health' })).statusCode).toBe(200)
  })

  it('excepts CSP reports, and leaves the public key set to anyone', async () => {
    const report = await hub.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { origin: FOREIGN_ORIGIN, 'content-type': 'application/csp-report' },
      payload: JSON.stringify({
        'csp-report': { 'document-uri': 'https://hub.example/login', 'violated-directive': 'script-src', 'blocked-uri': 'inline' }
      })
    })
    expect(report.statusCode).toBe(204)
    const jwks = await hub.app.inject({ url: '/.well-known/jwks.json', headers: { origin: FOREIGN_ORIGIN } })
    expect(jwks.statusCode).toBe(200)
  })

  it.each([
    ['no CORS headers', '/api/health', {}],
    ['an allowed Origin but no Access-Control-Request-Method', '/api/nothing-here', { origin: TASKS_ORIGIN }],
    ['Access-Control-Request-Method but no Origin', '/api/nothing-here', { 'access-control-request-method': 'POST' }],
    ['no CORS headers, on a page', '/login', {}]
  ])('routes an OPTIONS request with %s like any request: a JSON 404', async (_case, url, headers) => {
    const response = await hub.app.inject({ method: 'OPTIONS', url, headers })
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.json()).toEqual({ error: `Route OPTIONS ${url} not found` })
  })

  it('adds HUB_ALLOWED_ORIGINS to the list', async () => {
    const configured = await buildTestHubApp(hub.handle, { config: { allowedOrigins: ['https://hub.app.example'] } })
    expect((await configured.inject({ url: '/api/health', headers: { origin: 'https://hub.app.example' } })).statusCode).toBe(200)
    expect((await configured.inject({ url: '/api/health', headers: { origin: TASKS_ORIGIN } })).statusCode).toBe(403)
    await configured.close()
  })
})
