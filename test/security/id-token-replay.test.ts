import { describe, expect, it } from 'vitest'
import { ID_TOKEN_LIFETIME_SECONDS } from '../../src/hub/kernel/tokens/builtin-id-tokens.js'
import { CLOCK_TOLERANCE_SECONDS } from '../../src/hub/kernel/tokens/token-errors.js'
import { databasesUnderTest } from '../helpers/databases.js'
import { cookieHeader, cookiesSetBy, logIn, signUpAndLogIn, testClock, useHubApp } from '../helpers/hub-app.js'
import { IDP_USER, useHubWithExternalProvider } from '../helpers/external-provider.js'

/**
 * Issue 15, item 3: the `idToken` a login answers with minted any number of new 30-day sessions
 * through set-cookie for an hour, also after sign-out. It is now single use, lives two minutes, and
 * is refused once the session it came with has ended; set-cookie is throttled like login.
 */
const REFUSED = { error: 'The ID token is invalid, expired or not for this user' }

describe.each(databasesUnderTest())('replaying the ID token of a built-in login on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now })
  const setCookie = (payload: object, remoteAddress = '10.20.0.1') => hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload, remoteAddress })

  it('opens one session: used again, 401 and no cookie', async () => {
    const user = await signUpAndLogIn(hub.app)
    const first = await setCookie({ userId: user.userId, idToken: user.idToken })
    expect(first.statusCode, first.body).toBe(200)
    const opened = cookieHeader({ 'service-auth-token': cookiesSetBy(first)['service-auth-token']?.value })
    expect((await hub.app.inject({ url: '/api/privacy/settings', headers: { cookie: opened } })).statusCode).toBe(200)
    const replayed = await setCookie({ userId: user.userId, idToken: user.idToken })
    expect(replayed.statusCode).toBe(401)
    expect(replayed.json()).toEqual(REFUSED)
    expect(cookiesSetBy(replayed)['service-auth-token']).toBeUndefined()
  })

  it('opens one session when several set-cookies race with it', async () => {
    const user = await signUpAndLogIn(hub.app)
    const answers = await Promise.all(Array.from({ length: 5 }, () => setCookie({ userId: user.userId, idToken: user.idToken })))
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401, 401, 401])
  })

  it('expires two minutes after the login, give or take the clock tolerance', async () => {
    const user = await signUpAndLogIn(hub.app)
    const fresh = await logIn(hub.app, user.email)
    clock.advance((ID_TOKEN_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) * 1000 - 1000)
    expect((await setCookie({ userId: fresh.userId, idToken: fresh.idToken })).statusCode).toBe(200)
    clock.advance(1000)
    const late = await setCookie({ userId: user.userId, idToken: user.idToken })
    expect(late.statusCode).toBe(401)
    expect(cookiesSetBy(late)['service-auth-token']).toBeUndefined()
  })

  it('is refused once the session it came with has signed out', async () => {
    const user = await signUpAndLogIn(hub.app)
    const signOut = await hub.app.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: user.headers })
    expect(signOut.statusCode).toBe(204)
    const afterSignOut = await setCookie({ userId: user.userId, idToken: user.idToken })
    expect(afterSignOut.statusCode).toBe(401)
    expect(cookiesSetBy(afterSignOut)['service-auth-token']).toBeUndefined()
  })

  it('forgets used tokens once they could no longer verify anyway', async () => {
    const user = await signUpAndLogIn(hub.app)
    expect((await setCookie({ userId: user.userId, idToken: user.idToken })).statusCode).toBe(200)
    clock.advance((ID_TOKEN_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) * 1000)
    const later = await logIn(hub.app, user.email)
    expect((await setCookie({ userId: later.userId, idToken: later.idToken })).statusCode).toBe(200)
    const kept = await hub.handle.db.selectFrom('usedIdTokens').select('acceptedUntil').execute()
    expect(kept.every(({ acceptedUntil }) => Date.parse(acceptedUntil) > clock.now().getTime())).toBe(true)
    expect(kept.length).toBeGreaterThan(0)
  })
})

describe.each(databasesUnderTest())('flooding set-cookie on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now })
  const junk = (userId: string, remoteAddress: string) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId, idToken: 'not.a.token' }, remoteAddress })

  it('is limited like login per account: ten failures in 15 minutes, then 429 with Retry-After, even for a good token', async () => {
    const user = await signUpAndLogIn(hub.app)
    for (let attempt = 1; attempt <= 10; attempt++) expect((await junk(user.userId, `10.21.0.${attempt}`)).statusCode).toBe(401)
    const blocked = await hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: user.userId, idToken: user.idToken }, remoteAddress: '10.21.1.1' })
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json()).toEqual({ error: 'Too many failed sign-ins; try again later' })
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60)
  })

  it('is limited like login per IP: a hundred failures in 15 minutes across accounts, then 429', async () => {
    for (let attempt = 1; attempt <= 100; attempt++) expect((await junk(`user-${attempt}`, '10.22.0.1')).statusCode).toBe(401)
    const blocked = await junk('user-101', '10.22.0.1')
    expect(blocked.statusCode).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect((await junk('user-101', '10.22.0.2')).statusCode).toBe(401)
  })
})

describe.each(databasesUnderTest())("replaying an external provider's ID token on $name", (database) => {
  const idp = useHubWithExternalProvider(database)
  const setCookie = (token: string) => idp.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: IDP_USER, idToken: token } })

  it('accepts a token with a jti once', async () => {
    const token = await idp.idToken({ jti: 'provider-token-1' })
    expect((await setCookie(token)).statusCode).toBe(200)
    expect((await setCookie(token)).statusCode).toBe(401)
  })

  it('accepts a token without a jti once, and another token of the same user as well', async () => {
    const token = await idp.idToken({ nonce: 'first' })
    expect((await setCookie(token)).statusCode).toBe(200)
    expect((await setCookie(token)).statusCode).toBe(401)
    expect((await setCookie(await idp.idToken({ nonce: 'second' }))).statusCode).toBe(200)
  })
})
