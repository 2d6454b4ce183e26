import cookie from '@fastify/cookie'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { csrf } from '../../../../src/hub/kernel/pipeline/csrf.js'
import { origins } from '../../../../src/hub/kernel/pipeline/origins.js'
import { routeOptions } from '../../../../src/hub/kernel/pipeline/route-options.js'
import { sessionStage } from '../../../../src/hub/kernel/pipeline/session.js'
import { sessionOf } from '../../../../src/hub/kernel/sessions/request-session.js'
import type { ActiveSession, Sessions } from '../../../../src/hub/kernel/sessions/sessions.js'
import { type App, createServer } from '../../../../src/shared/http/server.js'
import { createLogger } from '../../../../src/shared/logging.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { cookieHeader, cookiesSetBy, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

const SIGNED_IN: ActiveSession = { id: 'session-1', userId: 'user-1', email: 'a@example.com', emailVerified: true, expiresAt: new Date('2099-01-01') }
const SIGNED_OUT = 'Sign in required: the auth cookie is missing, invalid or expired'
const NO_CSRF = 'CSRF token missing or incorrect'

/**
 * The pipeline's stages on an app of a few routes, each stating its options: the stages go by
 * those options alone, whatever the paths are called.
 */
describe('route options read by the pipeline', () => {
  let app: App
  let csrfToken: string

  beforeAll(async () => {
    app = await createServer({ logger: createLogger('silent'), openApi: { title: 'test', description: 'test', version: '1' } })
    // A session is whatever the auth cookie `good` stands for: the stage, not the sessions, is tested here.
    const sessions = { validate: async (value: string | undefined) => (value === 'good' ? SIGNED_IN : null) } as unknown as Sessions
    await app.register(cookie)
    await app.register(origins, { allowedOrigins: ['http://localhost'] })
    await app.register(routeOptions)
    await app.register(csrf, { cookieKeys: ['route-options-test-key-that-is-long-enough'], secureCookies: false, sessionIdOf: () => null })
    await app.register(sessionStage, { sessions, now: () => new Date('2030-01-01') })
    app.post('/open', async () => ({ ok: true }))
    app.post('/no-csrf', { config: { csrf: false } }, async () => ({ ok: true }))
    app.get('/signed-in', { config: { session: 'required' } }, async (request) => ({ userId: sessionOf(request).userId }))
    app.post('/signed-in', { config: { session: 'required' } }, async () => ({ ok: true }))
    app.get('/space/known', { config: { session: 'required' } }, async () => ({ ok: true }))
    app.unknownPaths('/space', { session: 'required' })
    app.unknownPaths('/space/open', {})
    await app.ready()
    csrfToken = cookiesSetBy(await app.inject({ url: '/nowhere' }))['service-csrf-token']?.value ?? ''
  })
  afterAll(() => app.close())

  const withCsrf = () => ({ cookie: cookieHeader({ 'service-csrf-token': csrfToken }), 'x-csrf-token': csrfToken })
  const signedIn = () => ({ cookie: cookieHeader({ 'service-csrf-token': csrfToken, 'service-auth-token': 'good' }), 'x-csrf-token': csrfToken })

  it('checks the CSRF header on a route that states nothing, and not on one that says csrf: false', async () => {
    const refused = await app.inject({ method: 'POST', url: '/open' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ error: NO_CSRF })
    expect((await app.inject({ method: 'POST', url: '/open', headers: withCsrf() })).statusCode).toBe(200)
    expect((await app.inject({ method: 'POST', url: '/no-csrf' })).statusCode).toBe(200)
  })

  it("asks for a session on a route that says session: 'required', and sets it for the route", async () => {
    const refused = await app.inject({ url: '/signed-in', headers: { cookie: 'service-auth-token=forged' } })
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toEqual({ error: SIGNED_OUT })
    const served = await app.inject({ url: '/signed-in', headers: signedIn() })
    expect(served.statusCode).toBe(200)
    expect(served.json()).toEqual({ userId: SIGNED_IN.userId })
    expect((await app.inject({ method: 'POST', url: '/open', headers: withCsrf() })).statusCode).toBe(200)
  })

  it('checks CSRF before the session', async () => {
    expect((await app.inject({ method: 'POST', url: '/signed-in' })).statusCode).toBe(403)
    expect((await app.inject({ method: 'POST', url: '/signed-in', headers: withCsrf() })).statusCode).toBe(401)
  })

  it.each([
    ['an unknown path below a prefix stated to need a session', 'GET', '/space/nope', 401],
    ['the prefix itself', 'GET', '/space', 401],
    ['a method the route at that path does not take', 'DELETE', '/space/known', 401],
    ['an OPTIONS request that is no preflight', 'OPTIONS', '/space/nope', 401],
    ['a nearer prefix stated to need nothing', 'GET', '/space/open/nope', 404],
    ['an unknown path elsewhere', 'GET', '/elsewhere', 404]
  ] as const)('answers %s as stated: signed out %i, signed in 404', async (_case, method, url, signedOut) => {
    const refused = await app.inject({ method, url, headers: withCsrf() })
    expect(refused.statusCode).toBe(signedOut)
    expect((await app.inject({ method, url, headers: signedIn() })).statusCode).toBe(404)
  })

  it('treats a method no route takes at a path as the routes there: no CSRF header asked where they ask none', async () => {
    expect((await app.inject({ method: 'PUT', url: '/no-csrf' })).statusCode).toBe(404)
    expect((await app.inject({ method: 'PUT', url: '/open' })).statusCode).toBe(403)
    expect((await app.inject({ method: 'PUT', url: '/no-csrf/below' })).statusCode).toBe(403)
  })

  it('refuses to state the unknown paths below one prefix twice', () => {
    expect(() => app.unknownPaths('/space', {})).toThrow(/stated twice/)
  })
})

/**
 * The spec's cookie-required paths, and the prefixes issues 4, 18 and 22 put their routes under:
 * every route the hub serves there states `session: 'required'` (signed out, it answers 401),
 * Stripe's webhook aside, which proves itself by its signature.
 */
const SESSION_REQUIRED_BELOW = ['/api/auth/refresh', '/api/auth/generate-token', '/api/auth/reauthenticate', '/api/export', '/api/privacy', '/api/account', '/api/billing']
const SIGNED_BY_ITS_CALLER = ['/api/billing/webhook']

describe.each(databasesUnderTest())('the routes below the protected paths on $name', (database) => {
  const hub = useHubApp(database)

  it('each require a session', async () => {
    const user = await signUpAndLogIn(hub.app)
    const protectedRoutes = hub.app.registeredRoutes.filter(
      // HEAD routes copy their GET route's options, and answer no body to read the refusal from.
      ({ method, url }) => method !== 'HEAD' && SESSION_REQUIRED_BELOW.some((prefix) => url === prefix || url.startsWith(`${prefix}/`)) && !SIGNED_BY_ITS_CALLER.includes(url)
    )
    expect(protectedRoutes.length).toBeGreaterThan(20)
    for (const { method, url } of protectedRoutes) {
      const path = url.replaceAll(/:\w+/g, 'x')
      const response = await hub.app.inject({ method: method as 'GET', url: path, headers: { cookie: cookieHeader({ 'service-csrf-token': user.csrfToken }), 'x-csrf-token': user.csrfToken } })
      // The stage's answer, not the route's own `sessionOf` refusal (`Sign in required`) after its body was read.
      expect([response.statusCode, response.json()], `${method} ${url}`).toEqual([401, { error: SIGNED_OUT }])
    }
  })
})
