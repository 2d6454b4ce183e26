import cookie from '@fastify/cookie'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptFormBodies } from '../../../../src/hub/kernel/http/form-bodies.js'
import { csrf } from '../../../../src/hub/kernel/pipeline/csrf.js'
import { routeOptions } from '../../../../src/hub/kernel/pipeline/route-options.js'
import { type App, createServer } from '../../../../src/shared/http/server.js'
import { createLogger } from '../../../../src/shared/logging.js'
import { cookieHeader, cookiesSetBy } from '../../../helpers/hub-app.js'

const KEYS = ['form-csrf-test-key-that-is-long-enough']

/** Forms of pages that work without script carry the CSRF token in a `_csrf` field instead of the header (`csrf: 'form'`). */
describe("the CSRF check of a page's form", () => {
  let app: App
  // The session an auth cookie stands for: its value, when there is one (the stage, not sessions, is tested).
  beforeAll(async () => {
    app = await createServer({ logger: createLogger('silent'), openApi: { title: 'test', description: 'test', version: '1' } })
    await app.register(cookie)
    await app.register(routeOptions)
    await app.register(csrf, { cookieKeys: KEYS, secureCookies: false, sessionIdOf: (request) => request.cookies['service-auth-token'] ?? null })
    await app.register(async (scope) => {
      acceptFormBodies(scope)
      scope.get('/form', async (_request, reply) => ({ token: reply.formCsrfToken(), again: reply.formCsrfToken() }))
      scope.post('/form', { config: { csrf: 'form' } }, async (request) => ({ fields: request.body }))
    })
    await app.ready()
  })
  afterAll(() => app.close())

  const post = (fields: Record<string, string | string[]>, cookies: Record<string, string>) => {
    const body = new URLSearchParams()
    for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one)
    return app.inject({ method: 'POST', url: '/form', headers: { cookie: cookieHeader(cookies), 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() })
  }

  it('gives the page a token bound to the session, sets it as the cookie once, and takes the form that carries it', async () => {
    const page = await app.inject({ url: '/form', headers: { cookie: cookieHeader({ 'service-auth-token': 'session-1' }) } })
    const { token, again } = page.json<{ token: string; again: string }>()
    expect(again).toBe(token)
    expect(cookiesSetBy(page)['service-csrf-token']?.value).toBe(token)
    expect([page.headers['set-cookie']].flat().filter((header) => String(header).startsWith('service-csrf-token='))).toHaveLength(1)

    const accepted = await post({ title: 'a', tag: ['x', 'y'], _csrf: token }, { 'service-auth-token': 'session-1', 'service-csrf-token': token })
    expect(accepted.statusCode, accepted.body).toBe(200)
    expect(accepted.json()).toEqual({ fields: { title: 'a', tag: ['x', 'y'], _csrf: token } })

    // A page already holding a bound token keeps it.
    const later = await app.inject({ url: '/form', headers: { cookie: cookieHeader({ 'service-auth-token': 'session-1', 'service-csrf-token': token }) } })
    expect(later.json()).toMatchObject({ token })
    expect(cookiesSetBy(later)['service-csrf-token']).toBeUndefined()
  })

  it('refuses a form without the field, with another value, or with a token of another session', async () => {
    const token = (await app.inject({ url: '/form', headers: { cookie: cookieHeader({ 'service-auth-token': 'session-1' }) } })).json<{ token: string }>().token
    const cookies = { 'service-auth-token': 'session-1', 'service-csrf-token': token }
    const forms: Record<string, string | string[]>[] = [{}, { _csrf: `${token}x` }, { _csrf: [token, token] }]
    for (const fields of forms) {
      const refused = await post(fields, cookies)
      expect(refused.statusCode).toBe(403)
      expect(refused.json()).toEqual({ error: 'CSRF token missing or incorrect' })
    }
    const elsewhere = await post({ _csrf: token }, { 'service-auth-token': 'session-2', 'service-csrf-token': token })
    expect(elsewhere.statusCode).toBe(403)
    expect(elsewhere.json()).toEqual({ error: 'CSRF token does not belong to this session' })
  })
})
