import { describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, buildTestHubApp, cookieHeader, cookiesSetBy, signUpAndLogIn, testClock, useHubApp } from '../../../helpers/hub-app.js'

const MINUTE = 60 * 1000
const TWO_HOURS_SECONDS = 2 * 60 * 60

describe.each(databasesUnderTest())('session cookie, refresh and sign-out on $name', (database) => {
  const clock = testClock()
  // A two-hour absolute lifetime, so the tests can reach its end.
  const hub = useHubApp(database, { now: clock.now, config: { sessionMaxAgeSeconds: TWO_HOURS_SECONDS } })

  const refresh = (user: SignedIn, authCookie = user.authCookie) =>
    hub.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: cookieHeader({ 'service-auth-token': authCookie, 'service-csrf-token': user.csrfToken }), 'x-csrf-token': user.csrfToken }
    })

  it('sets the auth cookie HttpOnly, SameSite=Lax, Path=/, for an hour, not Secure on plain http', async () => {
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: (await signUpAndLogIn(hub.app)).email, password: 'correct horse battery staple' } })
    const auth = cookiesSetBy(login)['service-auth-token']
    expect(auth).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 3600 })
    expect(auth?.secure).toBeUndefined()
    const csrf = cookiesSetBy(login)['service-csrf-token']
    expect(csrf).toMatchObject({ sameSite: 'Strict', path: '/' })
    expect(csrf?.httpOnly).toBeUndefined()
  })

  it('marks the cookies Secure when the public URL is https', async () => {
    const secureApp = await buildTestHubApp(hub.handle, { config: { publicUrl: 'https://hub.example' } })
    const user = await signUpAndLogIn(secureApp)
    const health = await secureApp.inject({ url: '/api/health', headers: { cookie: `service-auth-token=${user.authCookie}` } })
    expect(cookiesSetBy(health)['service-csrf-token']?.secure).toBe(true)
    const login = await secureApp.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'correct horse battery staple' } })
    expect(cookiesSetBy(login)['service-auth-token']?.secure).toBe(true)
    await secureApp.close()
  })

  it('renews the cookie for another hour, and refuses a cookie left an hour without refresh', async () => {
    const user = await signUpAndLogIn(hub.app)
    clock.advance(45 * MINUTE)
    const renewed = await refresh(user)
    expect(renewed.statusCode, renewed.body).toBe(200)
    const expiresAt = renewed.json<{ expiresAt: string }>().expiresAt
    expect(Date.parse(expiresAt)).toBe(clock.now().getTime() + 60 * MINUTE)
    const cookie = cookiesSetBy(renewed)['service-auth-token']
    expect(cookie).toMatchObject({ httpOnly: true, maxAge: 3600 })
    clock.advance(30 * MINUTE)
    // The first cookie has passed its hour; the renewed one has not.
    expect((await refresh(user)).statusCode).toBe(401)
    expect((await refresh(user, cookie?.value)).statusCode).toBe(200)
  })

  it('never renews past the absolute lifetime, and refuses the session after it', async () => {
    const user = await signUpAndLogIn(hub.app)
    const sessionEnd = clock.now().getTime() + TWO_HOURS_SECONDS * 1000
    let authCookie = user.authCookie
    for (let i = 0; i < 2; i++) {
      clock.advance(45 * MINUTE)
      authCookie = cookiesSetBy(await refresh(user, authCookie))['service-auth-token']?.value ?? ''
    }
    clock.advance(15 * MINUTE)
    const last = await refresh(user, authCookie)
    expect(last.statusCode).toBe(200)
    expect(Date.parse(last.json<{ expiresAt: string }>().expiresAt)).toBe(sessionEnd)
    expect(cookiesSetBy(last)['service-auth-token']?.maxAge).toBe(15 * 60)
    clock.advance(15 * MINUTE)
    expect((await refresh(user, cookiesSetBy(last)['service-auth-token']?.value)).statusCode).toBe(401)
  })

  it('signs out: 204, cookie cleared, session revoked so the old value is refused', async () => {
    const user = await signUpAndLogIn(hub.app)
    const signOut = await hub.app.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: user.headers })
    expect(signOut.statusCode).toBe(204)
    expect(signOut.body).toBe('')
    const cleared = cookiesSetBy(signOut)['service-auth-token']
    expect(cleared?.value).toBe('')
    expect(cleared?.maxAge ?? 0).toBeLessThanOrEqual(0)
    const again = await refresh(user)
    expect(again.statusCode).toBe(401)
    expect(again.json()).toEqual({ error: 'Sign in required: the auth cookie is missing, invalid or expired' })
    const rows = await hub.handle.db.selectFrom('sessions').select('id').where('userId', '=', user.userId).execute()
    expect(rows).toHaveLength(0)
  })

  it.each(['GET', 'PUT', 'PATCH'] as const)('answers %s on the refresh path with 405 and Allow', async (method) => {
    const user = await signUpAndLogIn(hub.app)
    const response = await hub.app.inject({ method, url: '/api/auth/refresh', headers: user.headers })
    expect(response.statusCode).toBe(405)
    expect(response.headers.allow).toBe('POST, DELETE')
    expect(response.json()).toEqual({ error: `Method ${method} is not allowed here; use POST or DELETE` })
  })

  it('refuses a raw user id as the auth cookie: 401', async () => {
    const user = await signUpAndLogIn(hub.app)
    expect((await refresh(user, user.userId)).statusCode).toBe(401)
  })

  it('stores who and from what browser, and last seen at refresh', async () => {
    const user = await signUpAndLogIn(hub.app)
    clock.advance(MINUTE)
    await refresh(user)
    const sessionId = user.authCookie.split('.')[2] ?? ''
    const row = await hub.handle.db.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow()
    expect(row.email).toBe(user.email)
    expect(row.userAgent).toBe('lightMyRequest')
    expect(row.lastSeenAt).toBe(clock.now().toISOString())
  })
})

describe.each(databasesUnderTest())('revocation across instances on $name', (database) => {
  it('is seen at once by the instance that revoked and within 5 seconds by another', async () => {
    const handle = await database.open()
    const clock = testClock()
    const first = await buildTestHubApp(handle, { now: clock.now })
    const second = await buildTestHubApp(handle, { now: clock.now })
    const user = await signUpAndLogIn(first)
    const refreshOn = (app: App) => app.inject({ method: 'POST', url: '/api/auth/refresh', headers: user.headers })
    expect((await refreshOn(second)).statusCode).toBe(200)
    expect((await refreshOn(first)).statusCode).toBe(200)
    expect((await first.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: user.headers })).statusCode).toBe(204)
    expect((await refreshOn(first)).statusCode).toBe(401)
    clock.advance(5_000)
    expect((await refreshOn(second)).statusCode).toBe(401)
    await first.close()
    await second.close()
    await handle.destroy()
  })
})
