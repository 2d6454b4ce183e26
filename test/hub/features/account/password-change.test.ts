import { describe, expect, it } from 'vitest'
import { SESSION_CACHE_TTL_MS } from '../../../../src/hub/kernel/sessions/sessions.js'
import type { App } from '../../../../src/shared/http/server.js'
import { useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, logIn, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const NEW_PASSWORD = 'a brand new passphrase'

const changePassword = (app: App, user: SignedIn, payload: object, headers = user.headers) =>
  app.inject({ method: 'PUT', url: '/api/account/password', headers, payload })
const login = (app: App, email: string, password: string) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
const profile = (app: App, user: SignedIn) => app.inject({ method: 'GET', url: '/api/account', headers: { cookie: user.headers.cookie ?? '' } })

describe.each(databasesUnderTest())('changing the password over HTTP on $name', (database) => {
  const smtp = useSmtpServer()
  const clock = testClock()
  const hub = useHubApp(database, () => ({ now: clock.now, config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))
  /** Sign-up mails a verification link too: only the notices. */
  const noticesTo = (email: string) =>
    smtp.server.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === email && !mail.text?.includes('#token='))

  it('keeps this session, ends the others, retires the old password and mails a notice', async () => {
    const email = uniqueEmail('change')
    const here = await signUpAndLogIn(hub.app, email)
    const elsewhere = await logIn(hub.app, email)
    // Read once, so this instance's session cache holds it: the change must end it anyway.
    expect((await profile(hub.app, elsewhere)).statusCode).toBe(200)

    const response = await changePassword(hub.app, here, { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD })
    expect(response.statusCode, response.body).toBe(204)
    clock.advance(SESSION_CACHE_TTL_MS + 1)

    expect((await profile(hub.app, here)).statusCode).toBe(200)
    expect((await profile(hub.app, elsewhere)).statusCode).toBe(401)
    expect((await login(hub.app, email, GOOD_PASSWORD)).statusCode).toBe(401)
    expect((await login(hub.app, email, NEW_PASSWORD)).statusCode).toBe(200)

    await expect.poll(() => noticesTo(email).length, { timeout: 10_000 }).toBe(1)
    const [notice] = noticesTo(email)
    expect(notice?.subject).toBe('Your Hearth password was changed')
    expect(notice?.text).toContain('every other session of the account was ended')
    expect(notice?.text).not.toContain(NEW_PASSWORD)
    const audited = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', here.userId).where('type', '=', 'password.changed').execute()
    expect(audited.map(({ detail }) => JSON.parse(detail) as unknown)).toEqual([{ sessionsEnded: 1 }])
  })

  it('writes the notice in the account’s language', async () => {
    const email = uniqueEmail('cambio')
    const user = await signUpAndLogIn(hub.app, email)
    expect((await hub.app.inject({ method: 'PATCH', url: '/api/account', headers: user.headers, payload: { locale: 'es' } })).statusCode).toBe(200)
    expect((await changePassword(hub.app, user, { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(204)
    await expect.poll(() => noticesTo(email).length, { timeout: 10_000 }).toBe(1)
    expect(noticesTo(email)[0]?.subject).toBe('Se ha cambiado tu contraseña de Hearth')
  })

  it('answers 401 to a wrong current password, and ten of them lock the account’s logins as ten wrong logins do', async () => {
    const email = uniqueEmail('guess')
    const user = await signUpAndLogIn(hub.app, email)
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await changePassword(hub.app, user, { currentPassword: `wrong guess ${attempt}`, newPassword: NEW_PASSWORD })
      expect(response.statusCode, response.body).toBe(401)
      expect(response.json()).toEqual({ error: 'Current password is incorrect' })
    }
    expect((await login(hub.app, email, GOOD_PASSWORD)).statusCode).toBe(429)
    const locked = await changePassword(hub.app, user, { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD })
    expect(locked.statusCode).toBe(429)
    expect(locked.headers['retry-after']).toBeDefined()
    // The password never changed.
    clock.advance(15 * 60_000 + 1)
    expect((await login(hub.app, email, GOOD_PASSWORD)).statusCode).toBe(200)
  })

  it('refuses a new password sign-up would refuse, without costing an attempt (400)', async () => {
    const email = uniqueEmail('weak')
    const user = await signUpAndLogIn(hub.app, email)
    for (const [newPassword, message] of [
      ['short', /at least 8 characters/],
      ['password1', /too common/]
    ] as const) {
      const response = await changePassword(hub.app, user, { currentPassword: GOOD_PASSWORD, newPassword })
      expect(response.statusCode).toBe(400)
      expect(response.json<{ error: string }>().error).toMatch(message)
    }
    expect((await login(hub.app, email, GOOD_PASSWORD)).statusCode).toBe(200)
  })

  it('refuses a change without the CSRF token: 403, password unchanged', async () => {
    const email = uniqueEmail('csrf')
    const user = await signUpAndLogIn(hub.app, email)
    const response = await changePassword(hub.app, user, { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD }, { cookie: user.headers.cookie ?? '' })
    expect(response.statusCode).toBe(403)
    expect((await login(hub.app, email, GOOD_PASSWORD)).statusCode).toBe(200)
  })
})
