import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { WRONG_CURRENT_PASSWORD } from '../../../../src/hub/kernel/sessions/current-password.js'
import { PASSWORD_REQUIRED, SIGN_IN_AGAIN } from '../../../../src/hub/features/deletion/routes.js'
import { SECOND_FACTOR_REQUIRED } from '../../../../src/hub/features/two-step/second-factor.js'
import { anonymousHeaders, mailsTo, signUpConfirmedAndLogIn, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { IDP_EMAIL, IDP_USER, useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { RECENT_SIGN_IN_MS, RECENT_SIGN_IN_REQUIRED } from '../../../../src/hub/kernel/sessions/recent-sign-in.js'
import { SESSION_CACHE_TTL_MS } from '../../../../src/hub/kernel/sessions/sessions.js'
import { totpCode } from '../../../../src/hub/features/two-step/totp.js'
import { GOOD_PASSWORD, type SignedIn, buildTestHubApp, cookiesSetBy, logIn, sessionHeaders, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { TOTP_STEP_MS, turnOnTwoStep } from '../../../helpers/two-step.js'

describe.each(databasesUnderTest())('DELETE /api/account on $name', (database) => {
  const smtp = useSmtpServer()
  const hub = useHubApp(database, () => ({
    config: { smtpUrl: smtpUrlFor(smtp.server.port) },
    mailSenderIntervalMs: 50,
    rateLimits: { failedLoginsPerAccount: { limit: 3, windowMs: 60_000 } }
  }))
  const deleteAccount = (headers: Record<string, string>, payload: object = { password: GOOD_PASSWORD }) =>
    hub.app.inject({ method: 'DELETE', url: '/api/account', headers, payload })

  it('ends every session, clears the cookies, erases the account and mails a confirmation to its address', async () => {
    const laptop = await signUpAndLogIn(hub.app)
    const phone = await logIn(hub.app, laptop.email)
    // The sign-up's verification mail goes out first: still queued, erasure would take it with the
    // account's other rows, and only one of the two mails would come (seen once in CI).
    await mailsTo(smtp.server, laptop.email, 1)

    const response = await deleteAccount(laptop.headers)
    expect(response.statusCode).toBe(204)
    const cleared = cookiesSetBy(response)['service-auth-token']
    expect(cleared?.value).toBe('')
    expect(cleared?.maxAge ?? 0).toBeLessThanOrEqual(0)

    for (const session of [laptop, phone]) {
      expect((await hub.app.inject({ url: '/api/account/sessions', headers: session.headers })).statusCode).toBe(401)
    }
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: laptop.email, password: GOOD_PASSWORD } })
    expect(login.statusCode).toBe(401)
    expect(await hub.handle.db.selectFrom('users').select('id').where('id', '=', laptop.userId).execute()).toEqual([])

    const mail = (await mailsTo(smtp.server, laptop.email, 2)).find((received) => received.subject === 'Your Hearth account was deleted')
    expect(mail?.text).toContain(laptop.email)
  })

  it('keeps one account.deleted record of the person: the id and the time, no address, no IP', async () => {
    const person = await signUpAndLogIn(hub.app)
    expect((await deleteAccount(person.headers)).statusCode).toBe(204)
    const records = await hub.handle.db.selectFrom('auditEvents').selectAll().where('userId', '=', person.userId).execute()
    expect(records).toEqual([
      { id: expect.any(String), userId: person.userId, type: 'account.deleted', detail: '{}', ip: null, userAgent: null, createdAt: expect.any(String) }
    ])
  })

  it('answers 401 to a wrong password, erases nothing, and counts it toward the sign-in lockout', async () => {
    const person = await signUpAndLogIn(hub.app)
    for (let attempt = 0; attempt < 3; attempt++) {
      const wrong = await deleteAccount(person.headers, { password: 'not the password at all' })
      expect(wrong.statusCode).toBe(401)
      expect(wrong.json()).toEqual({ error: WRONG_CURRENT_PASSWORD })
    }
    expect((await hub.app.inject({ url: '/api/account/sessions', headers: person.headers })).statusCode).toBe(200)
    const locked = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: person.email, password: GOOD_PASSWORD } })
    expect(locked.statusCode).toBe(429)
    expect((await deleteAccount(person.headers)).statusCode).toBe(429)
  })

  it('asks for the password: 400 without it', async () => {
    const person = await signUpAndLogIn(hub.app, uniqueEmail('no-password'))
    const response = await deleteAccount(person.headers, {})
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: PASSWORD_REQUIRED })
  })

  it('answers 401 without a session', async () => {
    expect((await deleteAccount(await anonymousHeaders(hub.app))).statusCode).toBe(401)
  })
})

/**
 * Deletion takes the proof every other sensitive change takes (docs/security-settings.md, "Recent
 * sign-in"), and the password besides. The tests above sign in just before deleting: a fresh
 * sign-in is a recent one.
 */
describe.each(databasesUnderTest())('DELETE /api/account needs a recent sign-in on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, () => ({ now: clock.now }))
  const deleteAccount = (user: SignedIn, password = GOOD_PASSWORD) =>
    hub.app.inject({ method: 'DELETE', url: '/api/account', headers: user.headers, payload: { password } })
  const reauthenticate = (user: SignedIn, payload: object) => hub.app.inject({ method: 'POST', url: '/api/auth/reauthenticate', headers: user.headers, payload })
  const expectRecentSignInRequired = (response: Awaited<ReturnType<typeof deleteAccount>>) => {
    expect([response.statusCode, response.json()]).toEqual([401, { error: RECENT_SIGN_IN_REQUIRED }])
    expect(response.headers['www-authenticate']).toBe('Session error="insufficient_user_authentication", max_age=600')
  }
  const accountExists = async (user: SignedIn) => (await hub.handle.db.selectFrom('users').select('id').where('id', '=', user.userId).execute()).length === 1

  it('refuses the right password once the sign-in is over 10 minutes old, erases nothing and keeps the session', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('stale'))
    clock.advance(RECENT_SIGN_IN_MS + 1)
    expectRecentSignInRequired(await deleteAccount(user))
    expect(await accountExists(user)).toBe(true)
    expect((await hub.app.inject({ url: '/api/account/sessions', headers: user.headers })).statusCode).toBe(200)
  })

  it('with two-step sign-in on, refuses the password alone, and deletes once the session is confirmed with a code of the app', async () => {
    const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('two-step'))
    const { secret } = await turnOnTwoStep(hub.app, user, clock.now())
    clock.advance(RECENT_SIGN_IN_MS + TOTP_STEP_MS)
    expectRecentSignInRequired(await deleteAccount(user))
    expect(await accountExists(user)).toBe(true)

    const confirmed = await reauthenticate(user, { code: totpCode(secret, clock.now()) })
    expect(confirmed.statusCode, confirmed.body).toBe(204)
    // The password is still asked for, and checked.
    const wrong = await deleteAccount(user, 'not the password at all')
    expect([wrong.statusCode, wrong.json()]).toEqual([401, { error: WRONG_CURRENT_PASSWORD }])
    expect((await deleteAccount(user)).statusCode).toBe(204)
    expect(await accountExists(user)).toBe(false)
  })

  it('with two-step sign-in on, an open session and the password cannot delete, not even after a reauthentication by the password; a code can', async () => {
    const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('session-and-password'))
    const { secret } = await turnOnTwoStep(hub.app, user, clock.now())
    clock.advance(RECENT_SIGN_IN_MS + TOTP_STEP_MS)
    const byPassword = await reauthenticate(user, { password: GOOD_PASSWORD })
    expect([byPassword.statusCode, byPassword.json()]).toEqual([403, { error: SECOND_FACTOR_REQUIRED }])
    expectRecentSignInRequired(await deleteAccount(user))
    expect(await accountExists(user)).toBe(true)

    expect((await reauthenticate(user, { code: totpCode(secret, clock.now()) })).statusCode).toBe(204)
    expect((await deleteAccount(user)).statusCode).toBe(204)
    expect(await accountExists(user)).toBe(false)
  })

  it('deletes after a reauthentication with the password while two-step sign-in is off', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('reauth'))
    clock.advance(RECENT_SIGN_IN_MS + 1)
    expectRecentSignInRequired(await deleteAccount(user))
    expect((await reauthenticate(user, { password: GOOD_PASSWORD })).statusCode).toBe(204)
    expect((await deleteAccount(user)).statusCode).toBe(204)
    expect(await accountExists(user)).toBe(false)
  })
})

describe.each(databasesUnderTest())('DELETE /api/account with an external provider on $name', (database) => {
  const idp = useHubWithExternalProvider(database)

  const signIn = async (userId = IDP_USER, claims: Record<string, unknown> = { email: IDP_EMAIL }) =>
    sessionHeaders(await idp.signIn({ sub: userId, ...claims, jti: randomUUID() }))

  it('refuses with 403 once the sign-in is more than 10 minutes old, and deletes after a fresh one without a password', async () => {
    const stale = await signIn()
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000).toISOString()
    await idp.handle.db.updateTable('sessions').set({ createdAt: elevenMinutesAgo }).where('userId', '=', IDP_USER).execute()
    const refused = await idp.app.inject({ method: 'DELETE', url: '/api/account', headers: stale, payload: {} })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ error: SIGN_IN_AGAIN })

    const fresh = await signIn()
    const deleted = await idp.app.inject({ method: 'DELETE', url: '/api/account', headers: fresh, payload: {} })
    expect(deleted.statusCode).toBe(204)
    expect(await idp.handle.db.selectFrom('sessions').select('id').where('userId', '=', IDP_USER).execute()).toEqual([])
    expect((await idp.app.inject({ url: '/api/account/sessions', headers: stale })).statusCode).toBe(401)
  })

  it('queues no confirmation when the provider gave no address', async () => {
    const headers = await signIn('idp-user-without-mail', {})
    expect((await idp.app.inject({ method: 'DELETE', url: '/api/account', headers, payload: {} })).statusCode).toBe(204)
    expect(await idp.handle.db.selectFrom('mailQueue').select('recipient').where('recipient', '=', '').execute()).toEqual([])
    expect(await idp.handle.db.selectFrom('auditEvents').select('type').where('userId', '=', 'idp-user-without-mail').execute()).toEqual([{ type: 'account.deleted' }])
  })
})

describe.each(databasesUnderTest())('deleting an account seen by another instance on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now })

  it("stops the other instance accepting the account's sessions within the revocation window", async () => {
    const second = await buildTestHubApp(hub.handle, { now: clock.now })
    try {
      const laptop = await signUpAndLogIn(hub.app)
      const phone = await logIn(hub.app, laptop.email)
      // The other instance has read, and caches, both sessions.
      for (const session of [laptop, phone]) expect((await second.inject({ url: '/api/account/sessions', headers: session.headers })).statusCode).toBe(200)
      expect((await hub.app.inject({ method: 'DELETE', url: '/api/account', headers: laptop.headers, payload: { password: GOOD_PASSWORD } })).statusCode).toBe(204)
      clock.advance(SESSION_CACHE_TTL_MS + 1)
      for (const session of [laptop, phone]) expect((await second.inject({ url: '/api/account/sessions', headers: session.headers })).statusCode).toBe(401)
    } finally {
      await second.close()
    }
  })
})
