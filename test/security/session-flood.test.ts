import { describe, expect, it } from 'vitest'
import { MAX_SESSIONS_PER_USER } from '../../src/hub/kernel/sessions/sessions.js'
import { databasesUnderTest } from '../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, logIn, signUpAndLogIn, testClock, useHubApp } from '../helpers/hub-app.js'
import { useHubWithExternalProvider } from '../helpers/external-provider.js'

/**
 * Issue 15, item 7: correct logins were never throttled and a user's sessions never bounded: 64
 * loops of correct logins made 414 sessions a second and slowed everyone else's logins from 16 ms
 * to 500 ms. Now 30 sign-ins per account per 15 minutes, and the newest 100 sessions per user.
 */
const FIFTEEN_MINUTES = 15 * 60 * 1000

describe.each(databasesUnderTest())('a loop of correct logins on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now })
  const login = (email: string, password = GOOD_PASSWORD) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: '10.30.0.1' })

  it('gets 30 sessions per account in 15 minutes, then 429 with Retry-After before the password is checked', async () => {
    const { email } = await signUpAndLogIn(hub.app)
    // Wrong passwords are failures, not sign-ins: they leave the 30 intact (the signup's login used one).
    for (let attempt = 1; attempt <= 5; attempt++) expect((await login(email, 'wrong password here')).statusCode).toBe(401)
    for (let attempt = 2; attempt <= 30; attempt++) expect((await login(email)).statusCode).toBe(200)
    const blocked = await login(email)
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json()).toEqual({ error: 'Too many sign-ins to this account; try again later' })
    expect(Number(blocked.headers['retry-after'])).toBe(15 * 60)
    // Refused before the password is checked: a wrong one is not even a failure now.
    expect((await login(email, 'wrong password here')).statusCode).toBe(429)
    const someoneElse = await signUpAndLogIn(hub.app)
    expect((await login(someoneElse.email)).statusCode).toBe(200)
    clock.advance(FIFTEEN_MINUTES)
    expect((await login(email)).statusCode).toBe(200)
  })
})

describe.each(databasesUnderTest())("a user's sessions on $name", (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now, rateLimits: { signInsPerAccount: { limit: 10_000, windowMs: FIFTEEN_MINUTES } } })
  const privacySettings = (user: SignedIn) => hub.app.inject({ url: '/api/privacy/settings', headers: { cookie: user.headers.cookie ?? '' } })

  it('are the newest 100: starting the 101st ends the oldest', async () => {
    const oldest = await signUpAndLogIn(hub.app)
    const sessions = [oldest]
    expect(MAX_SESSIONS_PER_USER).toBe(100)
    for (let count = 2; count <= MAX_SESSIONS_PER_USER; count++) {
      clock.advance(1000)
      sessions.push(await logIn(hub.app, oldest.email))
    }
    expect((await privacySettings(oldest)).statusCode).toBe(200)
    sessions.push(await logIn(hub.app, oldest.email))
    const rows = await hub.handle.db.selectFrom('sessions').select('id').where('userId', '=', oldest.userId).execute()
    expect(rows).toHaveLength(100)
    // Ended at once on this instance, although it read the row just now and would trust it for 4 s.
    expect((await privacySettings(oldest)).statusCode).toBe(401)
    for (const kept of [sessions[1], sessions[100]]) expect((await privacySettings(kept as SignedIn)).statusCode).toBe(200)
  })
})

describe.each(databasesUnderTest())("set-cookie in a loop with an external provider's tokens on $name", (database) => {
  const idp = useHubWithExternalProvider(database)
  const setCookie = async (userId: string, attempt: number) =>
    idp.app.inject({
      method: 'POST',
      url: '/api/auth/set-cookie',
      payload: { userId, idToken: await idp.idToken({ sub: userId, jti: `${userId}-${attempt}` }) }
    })

  it('gets 30 sessions per account in 15 minutes, then 429 with Retry-After', async () => {
    for (let attempt = 1; attempt <= 30; attempt++) expect((await setCookie('idp-looper', attempt)).statusCode).toBe(200)
    const blocked = await setCookie('idp-looper', 31)
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json()).toEqual({ error: 'Too many sign-ins to this account; try again later' })
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect((await setCookie('idp-someone-else', 1)).statusCode).toBe(200)
  })
})
