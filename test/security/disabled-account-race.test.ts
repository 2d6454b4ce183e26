import { setTimeout as sleep } from 'node:timers/promises'
import type { LightMyRequestResponse } from 'fastify'
import { describe, expect, it } from 'vitest'
import { SESSION_CACHE_TTL_MS } from '../../src/hub/kernel/sessions/sessions.js'
import { setAccountDisabled } from '../../src/hub/kernel/accounts/account-status.js'
import { databasesUnderTest } from '../helpers/databases.js'
import { GOOD_PASSWORD, cookieHeader, cookiesSetBy, logIn, signUpAndLogIn, testClock, useHubApp } from '../helpers/hub-app.js'

/**
 * Issue 15, item 1: a login (or set-cookie) already past its check that the account is enabled
 * when `users:disable` ran still created its session after the command had ended the account's
 * sessions: 4 of 140 cookies still answered 200 after 4.5 s, and could refresh and mint SSO tokens.
 * Here many sign-ins race the command; none may leave a session behind it.
 */
const RACERS = 40
const LAUNCH_INTERVAL_MS = 2
const UNLIMITED = { limit: 10_000, windowMs: 60_000 }

describe.each(databasesUnderTest())('sign-ins racing users:disable on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, {
    now: clock.now,
    // The race needs many sign-ins to one account at once; the limits are another test's business.
    rateLimits: { failedLoginsPerAccount: UNLIMITED, failedLoginsPerIp: UNLIMITED, signInsPerAccount: UNLIMITED }
  })

  const authCookieOf = (response: LightMyRequestResponse) => cookiesSetBy(response)['service-auth-token']?.value ?? ''
  const privacySettings = (authCookie: string) => hub.app.inject({ url: '/api/privacy/settings', headers: { cookie: cookieHeader({ 'service-auth-token': authCookie }) } })

  /**
   * Starts the sign-ins a moment apart, and disables the account when the first has answered: the
   * others are then at every stage of their work, some already past their own check of the account.
   */
  async function raceWithDisable(email: string, signIns: (() => Promise<LightMyRequestResponse>)[]) {
    const started: Promise<LightMyRequestResponse>[] = []
    let disabled: Promise<unknown> | undefined
    for (const signIn of signIns) {
      const answer = signIn()
      started.push(answer)
      disabled ??= answer.then(() => setAccountDisabled(hub.handle.db, email, true, clock.now()))
      await sleep(LAUNCH_INTERVAL_MS)
    }
    const answers = await Promise.all(started)
    expect(await disabled).toMatchObject({ email })
    const statuses = answers.map((answer) => answer.statusCode)
    // The command ran in the middle of the race: some sign-ins finished before it, some were refused after it.
    expect(statuses).toContain(200)
    expect(statuses.filter((status) => status !== 200 && status !== 401)).toEqual([])
    return answers.filter((answer) => answer.statusCode === 200).map(authCookieOf)
  }

  /** Past the time an instance trusts a session row it has read (4 s): every session the race started must be gone. */
  async function expectNoWorkingSession(authCookies: string[]) {
    clock.advance(SESSION_CACHE_TTL_MS + 500)
    const statuses = await Promise.all(authCookies.map(async (authCookie) => (await privacySettings(authCookie)).statusCode))
    expect(statuses.filter((status) => status !== 401)).toEqual([])
  }

  it('leaves no working session from logins that had read the account as enabled', async () => {
    const { email } = await signUpAndLogIn(hub.app)
    const logins = Array.from({ length: RACERS }, () => () => hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: GOOD_PASSWORD } }))
    await expectNoWorkingSession(await raceWithDisable(email, logins))
  })

  // Only PostgreSQL stages this race for real: on SQLite a set-cookie past its checks finishes its
  // queries without another request's running in between. The test guards both all the same.
  it('leaves no working session from set-cookies that had verified the ID token of an enabled account', async () => {
    const user = await signUpAndLogIn(hub.app)
    const idTokens: string[] = []
    for (let login = 0; login < RACERS; login++) idTokens.push((await logIn(hub.app, user.email)).idToken)
    const setCookies = idTokens.map((idToken) => () => hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: user.userId, idToken } }))
    await expectNoWorkingSession(await raceWithDisable(user.email, setCookies))
  })
})
