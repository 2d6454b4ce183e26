import { describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { FOREIGN_ORIGIN, GOOD_PASSWORD, TASKS_ORIGIN, useHubApp, cookieHeader, cookiesSetBy, signUpAndLogIn, uniqueEmail } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('CSRF on $name', (database) => {
  const hub = useHubApp(database)

  const csrfCookieOf = (response: Awaited<ReturnType<App['inject']>>) => cookiesSetBy(response)['service-csrf-token']?.value

  it('issues a token to a request without one, and keeps a valid one', async () => {
    const first = await hub.app.inject({ url: '/api/health' })
    const token = csrfCookieOf(first)
    expect(token).toBeTruthy()
    const second = await hub.app.inject({ url: '/api/health', headers: { cookie: `service-csrf-token=${token}` } })
    expect(csrfCookieOf(second)).toBeUndefined()
    const bogus = await hub.app.inject({ url: '/api/health', headers: { cookie: 'service-csrf-token=made-up' } })
    expect(csrfCookieOf(bogus)).toBeTruthy()
  })

  it('replaces a token planted before sign-in, and refuses it afterwards even when header and cookie agree', async () => {
    const planted = csrfCookieOf(await hub.app.inject({ url: '/api/health' })) ?? ''
    const email = uniqueEmail()
    await hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD } })
    const login = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `service-csrf-token=${planted}` },
      payload: { email, password: GOOD_PASSWORD }
    })
    const authCookie = cookiesSetBy(login)['service-auth-token']?.value
    const issued = csrfCookieOf(login)
    expect(issued).toBeTruthy()
    expect(issued).not.toBe(planted)
    const withPlanted = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: cookieHeader({ 'service-auth-token': authCookie, 'service-csrf-token': planted }), 'x-csrf-token': planted }
    })
    expect(withPlanted.statusCode).toBe(403)
    expect(withPlanted.json()).toEqual({ error: 'CSRF token does not belong to this session' })
    const withIssued = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: cookieHeader({ 'service-auth-token': authCookie, 'service-csrf-token': issued }), 'x-csrf-token': issued ?? '' }
    })
    expect(withIssued.statusCode).toBe(200)
  })

  it("refuses another session's token", async () => {
    const alice = await signUpAndLogIn(hub.app)
    const bob = await signUpAndLogIn(hub.app)
    const response = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: cookieHeader({ 'service-auth-token': alice.authCookie, 'service-csrf-token': bob.csrfToken }), 'x-csrf-token': bob.csrfToken }
    })
    expect(response.statusCode).toBe(403)
  })

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('checks %s on any path, routes or not', async (method) => {
    const response = await hub.app.inject({ method, url: '/some/page', payload: {} })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: 'CSRF token missing or incorrect' })
  })

  it('leaves safe methods alone', async () => {
    expect((await hub.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    expect((await hub.app.inject({ method: 'HEAD', url: '/api/health' })).statusCode).toBe(200)
  })

  it.each([
    ['a 401 for a missing auth cookie', 'GET', '/api/privacy/settings', {}, 401],
    ['a 403 for a foreign origin', 'GET', '/api/health', { origin: FOREIGN_ORIGIN }, 403],
    ['a 403 for a missing CSRF header', 'POST', '/api/auth/refresh', {}, 403],
    ['a 404', 'GET', '/api/nothing-here', {}, 404],
    ['a malformed URL, refused before routing', 'GET', '/api/%', {}, 400],
    ['a preflight', 'OPTIONS', '/api/auth/refresh', { origin: TASKS_ORIGIN, 'access-control-request-method': 'POST' }, 204]
  ])('issues a fresh token on %s', async (_case, method, url, headers, status) => {
    const response = await hub.app.inject({ method: method as 'GET', url, headers })
    expect(response.statusCode).toBe(status)
    expect(csrfCookieOf(response)).toMatch(/^[\w-]+\.[\w-]+$/)
  })

  it('sets no cookie on the publicly cacheable key set, which a shared cache would replay to others', async () => {
    const response = await hub.app.inject({ url: '/.well-known/jwks.json' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toMatch(/public/)
    expect(response.headers['set-cookie']).toBeUndefined()
  })
})
