import { describe, expect, it } from 'vitest'
import { WRONG_CURRENT_PASSWORD } from '../../../../src/hub/kernel/sessions/current-password.js'
import { RECENT_SIGN_IN_MS, RECENT_SIGN_IN_REQUIRED } from '../../../../src/hub/kernel/sessions/recent-sign-in.js'
import { sessionHandle } from '../../../../src/hub/kernel/sessions/session-handle.js'
import { SECOND_FACTOR_REQUIRED } from '../../../../src/hub/features/two-step/second-factor.js'
import { totpCode } from '../../../../src/hub/features/two-step/totp.js'
import { MALFORMED_CODE, NOT_ON, WRONG_CODE } from '../../../../src/hub/features/two-step/two-step.js'
import type { App } from '../../../../src/shared/http/server.js'
import { signUpConfirmedAndLogIn } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, buildTestHubApp, logIn, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { TOTP_STEP_MS, turnOnTwoStep } from '../../../helpers/two-step.js'

/** The 400 of reauthenticate for no proof or more than one, the proofs the features add named with the password. */
const ONE_OF_PASSWORD_OR_CODE = 'Give one of password, code or passkey'
const CHALLENGE = 'Session error="insufficient_user_authentication", max_age=600'
const NEW_PASSWORD = 'a brand new passphrase'

const reauthenticate = (app: App, user: SignedIn, payload: object, headers = user.headers) =>
  app.inject({ method: 'POST', url: '/api/auth/reauthenticate', headers, payload })
const changePassword = (app: App, user: SignedIn) =>
  app.inject({ method: 'PUT', url: '/api/account/password', headers: user.headers, payload: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } })
const changeEmail = (app: App, user: SignedIn) =>
  app.inject({ method: 'POST', url: '/api/account/email', headers: user.headers, payload: { email: uniqueEmail('moved'), currentPassword: GOOD_PASSWORD } })
const sessionIdOf = (user: SignedIn) => user.authCookie.split('.')[2] ?? ''

describe.each(databasesUnderTest())('recent sign-in (sudo mode) over HTTP on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, () => ({ now: clock.now, rateLimits: { signupsPerIp: { limit: 1000, windowMs: 60_000 } } }))
  const expectRecentSignInRequired = (response: Awaited<ReturnType<App['inject']>>) => {
    expect([response.statusCode, response.json()]).toEqual([401, { error: RECENT_SIGN_IN_REQUIRED }])
    // Every way POST /api/auth/reauthenticate accepts is named.
    expect(RECENT_SIGN_IN_REQUIRED).toContain('confirm your password, a code or a passkey')
    expect(response.headers['www-authenticate']).toBe(CHALLENGE)
  }

  it('counts a sign-in for ten minutes: then the password and the address wait for a fresh proof', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('sudo'))
    clock.advance(RECENT_SIGN_IN_MS)
    expect((await changeEmail(hub.app, user)).statusCode).toBe(204)
    clock.advance(1)
    expectRecentSignInRequired(await changePassword(hub.app, user))
    expectRecentSignInRequired(await changeEmail(hub.app, user))
  })

  it('is given back by the password: 204, audited with the session’s handle, and the change goes through', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('reauth'))
    clock.advance(RECENT_SIGN_IN_MS + 1)
    const response = await reauthenticate(hub.app, user, { password: GOOD_PASSWORD })
    expect(response.statusCode, response.body).toBe(204)
    const events = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', user.userId).where('type', '=', 'session.reauthenticated').execute()
    expect(events.map(({ detail }) => JSON.parse(detail) as unknown)).toEqual([{ method: 'password', session: sessionHandle(sessionIdOf(user)) }])
    expect((await changePassword(hub.app, user)).statusCode).toBe(204)
  })

  it('is this session’s only: another session of the account still needs its own', async () => {
    const email = uniqueEmail('per-session')
    const here = await signUpAndLogIn(hub.app, email)
    const elsewhere = await logIn(hub.app, email)
    clock.advance(RECENT_SIGN_IN_MS + 1)
    expect((await reauthenticate(hub.app, here, { password: GOOD_PASSWORD })).statusCode).toBe(204)
    expectRecentSignInRequired(await changeEmail(hub.app, elsewhere))
  })

  it('counts at once on another instance that has this session cached', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('instances'))
    const other = await buildTestHubApp(hub.handle, { now: clock.now })
    try {
      clock.advance(RECENT_SIGN_IN_MS + 1)
      expectRecentSignInRequired(await changeEmail(other, user))
      expect((await reauthenticate(hub.app, user, { password: GOOD_PASSWORD })).statusCode).toBe(204)
      expect((await changeEmail(other, user)).statusCode).toBe(204)
    } finally {
      await other.close()
    }
  })

  it('is missing for sessions begun before it was recorded', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('old-session'))
    await hub.handle.db.updateTable('sessions').set({ authenticatedAt: null }).where('id', '=', sessionIdOf(user)).execute()
    expectRecentSignInRequired(await changePassword(hub.app, user))
  })

  it('refuses a wrong password (401), counted toward the account’s lockout', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('wrong'))
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await reauthenticate(hub.app, user, { password: 'not the password at all' })
      expect([response.statusCode, response.json()]).toEqual([401, { error: WRONG_CURRENT_PASSWORD }])
    }
    const locked = await reauthenticate(hub.app, user, { password: GOOD_PASSWORD })
    expect([locked.statusCode, locked.json()]).toEqual([429, { error: 'Too many failed sign-ins; try again later' }])
    expect((await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: GOOD_PASSWORD } })).statusCode).toBe(429)
  })

  it('takes a code of the authenticator app instead, once; wrong codes count like wrong passwords', async () => {
    const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('by-code'))
    const { secret } = await turnOnTwoStep(hub.app, user, clock.now())
    clock.advance(RECENT_SIGN_IN_MS + TOTP_STEP_MS)
    const code = totpCode(secret, clock.now())
    const wrong = await reauthenticate(hub.app, user, { code: totpCode(secret, new Date(clock.now().getTime() + 5 * TOTP_STEP_MS)) })
    expect([wrong.statusCode, wrong.json()]).toEqual([401, { error: WRONG_CODE }])
    expect((await reauthenticate(hub.app, user, { code })).statusCode).toBe(204)
    expect((await changePassword(hub.app, user)).statusCode).toBe(204)
    const replayed = await reauthenticate(hub.app, user, { code })
    expect([replayed.statusCode, replayed.json()]).toEqual([401, { error: WRONG_CODE }])
    const events = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', user.userId).where('type', '=', 'session.reauthenticated').execute()
    expect(events.map(({ detail }) => (JSON.parse(detail) as { method: string }).method)).toEqual(['totp'])
  })

  it('with two-step sign-in on, refuses the password alone (403), neither checking nor counting it; the code still confirms, and once two-step sign-in is off the password does again', async () => {
    const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('password-not-enough'))
    const { secret } = await turnOnTwoStep(hub.app, user, clock.now())
    clock.advance(RECENT_SIGN_IN_MS + TOTP_STEP_MS)
    // More tries than the lockout allows, right and wrong alike: the same 403, so the password is not looked at.
    for (const password of [GOOD_PASSWORD, ...Array.from({ length: 11 }, (_, attempt) => `not the password ${attempt}`)]) {
      const refused = await reauthenticate(hub.app, user, { password })
      expect([refused.statusCode, refused.json()], password).toEqual([403, { error: SECOND_FACTOR_REQUIRED }])
    }
    expectRecentSignInRequired(await changePassword(hub.app, user))
    // Nothing was counted: ten failures would have locked the account's logins.
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: GOOD_PASSWORD } })
    expect(login.statusCode, login.body).toBe(200)
    expect(await hub.handle.db.selectFrom('auditEvents').select('id').where('userId', '=', user.userId).where('type', '=', 'session.reauthenticated').execute()).toEqual([])

    expect((await reauthenticate(hub.app, user, { code: totpCode(secret, clock.now()) })).statusCode).toBe(204)
    expect((await hub.app.inject({ method: 'DELETE', url: '/api/account/totp', headers: user.headers })).statusCode).toBe(204)
    clock.advance(RECENT_SIGN_IN_MS + 1)
    expect((await reauthenticate(hub.app, user, { password: GOOD_PASSWORD })).statusCode).toBe(204)
    expect((await changePassword(hub.app, user)).statusCode).toBe(204)
  })

  it('takes no recovery code, two-step sign-in on or off: it is for signing in again when the app is lost', async () => {
    const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('recovery-code'))
    const { recoveryCodes } = await turnOnTwoStep(hub.app, user, clock.now())
    clock.advance(RECENT_SIGN_IN_MS + 1)
    for (const payload of [{ code: recoveryCodes[0] }, { recoveryCode: recoveryCodes[0] }]) {
      expect((await reauthenticate(hub.app, user, payload)).statusCode, JSON.stringify(payload)).toBe(400)
    }
    expectRecentSignInRequired(await changePassword(hub.app, user))
  })

  it('counts wrong codes toward the account’s lockout too', async () => {
    const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('code-lockout'))
    const { secret } = await turnOnTwoStep(hub.app, user, clock.now())
    const wrong = totpCode(secret, new Date(clock.now().getTime() + 5 * TOTP_STEP_MS))
    for (let attempt = 0; attempt < 10; attempt++) expect((await reauthenticate(hub.app, user, { code: wrong })).statusCode).toBe(401)
    clock.advance(TOTP_STEP_MS)
    const locked = await reauthenticate(hub.app, user, { code: totpCode(secret, clock.now()) })
    expect([locked.statusCode, locked.json()]).toEqual([429, { error: 'Too many failed sign-ins; try again later' }])
  })

  it.each([
    ['neither', {}, ONE_OF_PASSWORD_OR_CODE],
    ['both', { password: GOOD_PASSWORD, code: '123456' }, ONE_OF_PASSWORD_OR_CODE],
    ['a malformed code', { code: '12 34' }, MALFORMED_CODE],
    ['a code while two-step sign-in is off', { code: '123456' }, NOT_ON]
  ])('answers 400 for %s', async (_case, payload, message) => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('bad-body'))
    const response = await reauthenticate(hub.app, user, payload)
    expect([response.statusCode, response.json()]).toEqual([400, { error: message }])
  })

  it('needs a session (401) and the CSRF header (403)', async () => {
    const user = await signUpAndLogIn(hub.app, uniqueEmail('no-session'))
    expect((await reauthenticate(hub.app, user, { password: GOOD_PASSWORD }, { 'x-csrf-token': user.csrfToken, cookie: `service-csrf-token=${user.csrfToken}` })).statusCode).toBe(401)
    expect((await reauthenticate(hub.app, user, { password: GOOD_PASSWORD }, { cookie: user.headers.cookie ?? '' })).statusCode).toBe(403)
  })
})
