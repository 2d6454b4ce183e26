import { beforeAll, describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { FOREIGN_ORIGIN, type SignedIn, cookieHeader, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

/**
 * The router percent-decodes the path; every stage must decide on that same path, or an
 * encoded spelling of a protected path reaches its route past the stages.
 */
const ENCODED_REFRESH_PATHS = ['/%61pi/auth/refresh', '/api/auth/%72efresh', '/%61%70%69/%61uth/refresh', '/api/auth/refresh?', '/api/auth/refresh?x=1']
/** Spellings the router does not take for the refresh path: refused with a JSON 404, never reaching it. */
const DOUBLE_SLASH_PATHS = ['//api/auth/refresh', '/api//auth/refresh', '/api/auth//refresh']

describe.each(databasesUnderTest())('the stages see the path the router sees, on $name', (database) => {
  const hub = useHubApp(database)
  let user: SignedIn
  const withSession = () => user.headers

  beforeAll(async () => {
    user = await signUpAndLogIn(hub.app)
  })

  it.each(ENCODED_REFRESH_PATHS)('refuses a foreign origin on %s: 403 from the origin stage', async (url) => {
    const response = await hub.app.inject({ method: 'POST', url, headers: { ...withSession(), origin: FOREIGN_ORIGIN } })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: 'Origin not allowed' })
  })

  it.each(ENCODED_REFRESH_PATHS)('refuses a missing CSRF token on %s: 403', async (url) => {
    const { 'x-csrf-token': _token, ...headers } = withSession()
    const response = await hub.app.inject({ method: 'POST', url, headers })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: 'CSRF token missing or incorrect' })
  })

  it.each(ENCODED_REFRESH_PATHS)('refuses a request without the auth cookie on %s: 401 from the session stage', async (url) => {
    // GET: the route would answer 405; the session stage answers first.
    const response = await hub.app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'Sign in required: the auth cookie is missing, invalid or expired' })
  })

  it.each(ENCODED_REFRESH_PATHS)('still serves a signed-in request on %s', async (url) => {
    const response = await hub.app.inject({ method: 'POST', url, headers: withSession() })
    expect(response.statusCode, response.body).toBe(200)
  })

  it('applies the origin stage to an encoded /api/ path of the privacy routes', async () => {
    const response = await hub.app.inject({ url: '/%61pi/privacy/settings', headers: { cookie: cookieHeader({ 'service-auth-token': user.authCookie }), origin: FOREIGN_ORIGIN } })
    expect(response.statusCode).toBe(403)
  })

  it.each(DOUBLE_SLASH_PATHS)('never lets %s reach the refresh route, with or without a session', async (url) => {
    for (const headers of [{}, withSession(), { ...withSession(), origin: FOREIGN_ORIGIN }]) {
      const response = await hub.app.inject({ method: 'POST', url, headers })
      expect([403, 404]).toContain(response.statusCode)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
      expect(response.json()).toHaveProperty('error')
    }
    const anonymous = await hub.app.inject({ method: 'GET', url })
    expect(anonymous.statusCode).toBe(404)
  })

  it('refuses a foreign origin on /api//...: the origin stage sees the same /api/ path', async () => {
    const response = await hub.app.inject({ url: '/api//health', headers: { origin: FOREIGN_ORIGIN } })
    expect(response.statusCode).toBe(403)
  })
})
