import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Keyring } from '../../../src/hub/kernel/tokens/keyring.js'
import { createGrantsRepository } from '../../../src/shared/access-grants/repository.js'
import type { App } from '../../../src/shared/http/server.js'
import { SESSION_COOKIE, signCookieValue } from '../../../src/tasks/web/cookies.js'
import { createBrowserSessions } from '../../../src/tasks/web/sessions.js'
import { databasesUnderTest, useDatabase } from '../../helpers/databases.js'
import { freshKeyring, keysOf } from '../../helpers/security-events.js'
import { buildTestTasksApp } from '../../helpers/tasks-app.js'

const COOKIE_KEYS = ['a-test-key-for-the-task-manager-pages-cookies']
/** Nothing listens there: the hub's discovery fails, which the sign-in route must say plainly. */
const UNREACHABLE_HUB = 'http://127.0.0.1:9'
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout'

describe.each(databasesUnderTest())('the task manager’s page sessions, on $name', (database) => {
  const handle = useDatabase(database)
  let app: App
  let hubKeys: Keyring

  beforeAll(async () => {
    hubKeys = await freshKeyring()
    app = await buildTestTasksApp(handle.current.db, { hubKeys: keysOf(hubKeys), cookieKeys: COOKIE_KEYS, config: { hubIssuer: UNREACHABLE_HUB, permissionsEnabled: true } })
  })
  afterAll(() => app?.close())

  const sessions = () => createBrowserSessions(handle.current.db)
  const sessionCookie = async (userId: string, hubSid: string | null) => {
    const { token } = await sessions().start(userId, hubSid, new Date())
    return { token, cookie: `${SESSION_COOKIE}=${signCookieValue(COOKIE_KEYS, SESSION_COOKIE, token)}` }
  }
  const logoutToken = async (claims: Record<string, unknown>, options: { issuer?: string; audience?: string; typ?: string } = {}) => {
    const { key, kid, alg } = await hubKeys.signingKey()
    return new SignJWT({ events: { [BACKCHANNEL_LOGOUT_EVENT]: {} }, jti: crypto.randomUUID(), ...claims })
      .setProtectedHeader({ alg, kid, typ: options.typ ?? 'logout+jwt' })
      .setIssuer(options.issuer ?? UNREACHABLE_HUB)
      .setAudience(options.audience ?? 'tasks')
      .setIssuedAt()
      .sign(key)
  }
  const backchannelLogout = async (token: string) =>
    app.inject({ method: 'POST', url: '/auth/backchannel-logout', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ logout_token: token }).toString() })

  it('a back-channel logout naming a sid ends the sessions of that hub session only', async () => {
    const ended = await sessionCookie('logout-user', 'sid-1')
    const kept = await sessionCookie('logout-user', 'sid-2')
    const response = await backchannelLogout(await logoutToken({ sub: 'logout-user', sid: 'sid-1' }))
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(await sessions().find(ended.token, new Date())).toBeNull()
    expect(await sessions().find(kept.token, new Date())).toEqual({ userId: 'logout-user' })
  })

  it('a back-channel logout naming only a sub ends every session of that person', async () => {
    const first = await sessionCookie('sub-user', 'sid-a')
    const second = await sessionCookie('sub-user', null)
    const other = await sessionCookie('someone-else', 'sid-b')
    expect((await backchannelLogout(await logoutToken({ sub: 'sub-user' }))).statusCode).toBe(200)
    expect(await sessions().find(first.token, new Date())).toBeNull()
    expect(await sessions().find(second.token, new Date())).toBeNull()
    expect(await sessions().find(other.token, new Date())).toEqual({ userId: 'someone-else' })
  })

  it.each([
    ['another audience', () => logoutToken({ sub: 'u', sid: 's' }, { audience: 'wiki' }), 'The logout token is not valid'],
    ['another issuer', () => logoutToken({ sub: 'u', sid: 's' }, { issuer: 'https://evil.example' }), 'The logout token is not valid'],
    ['an ID token’s typ', () => logoutToken({ sub: 'u', sid: 's' }, { typ: 'JWT' }), 'The logout token is not valid'],
    ['a nonce', () => logoutToken({ sub: 'u', sid: 's', nonce: 'n' }), 'The token is not a logout token'],
    ['no logout event', () => logoutToken({ sub: 'u', sid: 's', events: {} }), 'The token is not a logout token'],
    ['neither sid nor sub', () => logoutToken({}), 'The logout token names no session and no user']
  ])('refuses a logout token with %s: 400 {error}', async (_case, token, error) => {
    const { token: live } = await sessionCookie('u', 's')
    const response = await backchannelLogout(await token())
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error })
    expect(await sessions().find(live, new Date())).toEqual({ userId: 'u' })
  })

  it('answers 503 when the hub cannot be reached to sign in', async () => {
    const response = await app.inject({ url: '/auth/sign-in' })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({ error: 'The hub cannot be reached: try again shortly' })
  })

  it('a callback without a sign-in pending in this browser is a 400 page offering to sign in again', async () => {
    const response = await app.inject({ url: '/auth/callback?code=stolen&state=whatever' })
    expect(response.statusCode).toBe(400)
    expect(response.body).toContain('Signing in with Hearth did not work. Try again.')
    expect(response.body).toContain('href="/auth/sign-in"')
  })

  it('refuses a form post without a body or of another type with the 403 page, not a failure', async () => {
    const { cookie } = await sessionCookie('bodiless', null)
    const bare = await app.inject({ method: 'POST', url: '/auth/sign-out', headers: { cookie } })
    expect(bare.statusCode).toBe(403)
    const json = await app.inject({ method: 'POST', url: '/pages/tasks', headers: { cookie }, payload: { title: 'JSON' } })
    expect(json.statusCode).toBe(403)
    expect(json.body).toContain('This form has expired')
  })

  it('signing out without a session shows the signed-out page', async () => {
    const response = await app.inject({ method: 'POST', url: '/auth/sign-out', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe('/auth/signed-out')
  })

  it('with permissions enforced, a person without read sees a 403 page, and one without write cannot add', async () => {
    const grants = createGrantsRepository(handle.current.db)
    await grants.upsert({ userId: 'no-access', applicationId: 'tasks', roles: ['member'], permissions: [], grantedBy: 'test' })
    await grants.upsert({ userId: 'reader', applicationId: 'tasks', roles: ['member'], permissions: ['read'], grantedBy: 'test' })
    const noAccess = await sessionCookie('no-access', null)
    const reader = await sessionCookie('reader', null)

    const refused = await app.inject({ url: '/', headers: { cookie: noAccess.cookie } })
    expect(refused.statusCode).toBe(403)
    expect(refused.body).toContain('You may not do that here.')

    const page = await app.inject({ url: '/', headers: { cookie: reader.cookie } })
    expect(page.statusCode).toBe(200)
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? ''
    const add = await app.inject({
      method: 'POST',
      url: '/pages/tasks',
      headers: { cookie: `${reader.cookie}; tasks-csrf=${csrf}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrf, title: 'Not allowed' }).toString()
    })
    expect(add.statusCode).toBe(403)
    expect(add.body).toContain('You may not do that here.')
    expect(await handle.current.db.selectFrom('tasks').select('id').where('assignee', '=', 'reader').execute()).toEqual([])
  })
})
