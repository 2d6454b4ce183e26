import type { ParsedMail } from 'mailparser'
import { describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, HUB_ORIGIN, type SignedIn, logIn, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const INVALID_LINK = { error: 'The confirmation link is invalid, used or expired' }

const requestChange = (app: App, user: SignedIn, payload: object, headers = user.headers) =>
  app.inject({ method: 'POST', url: '/api/account/email', headers, payload })
const confirm = (app: App, user: SignedIn, token: string) => app.inject({ method: 'POST', url: '/api/account/email/confirm', headers: user.headers, payload: { token } })
const login = (app: App, email: string) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: GOOD_PASSWORD } })
const profile = async (app: App, user: SignedIn) =>
  (await app.inject({ method: 'GET', url: '/api/account', headers: { cookie: user.headers.cookie ?? '' } })).json<{ email: string; emailVerified: boolean }>()
const tokenIn = (mail: ParsedMail | undefined) => /\/confirm-email#token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? ''

describe.each(databasesUnderTest())('changing the address over HTTP on $name', (database) => {
  const smtp = useSmtpServer()
  const clock = testClock()
  const hub = useHubApp(database, () => ({ now: clock.now, config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))
  const mailTo = async (email: string, subject: string) => {
    const find = () => smtp.server.received.find((mail) => mail.subject === subject && !Array.isArray(mail.to) && mail.to?.value[0]?.address === email)
    await expect.poll(find, { timeout: 10_000 }).toBeDefined()
    return find()
  }
  const confirmationTo = (email: string) => mailTo(email, 'Confirm the new address of your Hearth account')

  it('mails a link to the new address and a notice to the old; only the link moves the account, verified', async () => {
    const oldEmail = uniqueEmail('old')
    const newEmail = uniqueEmail('new')
    const user = await signUpAndLogIn(hub.app, oldEmail)

    const response = await requestChange(hub.app, user, { email: `  ${newEmail.toUpperCase()} `, currentPassword: GOOD_PASSWORD })
    expect(response.statusCode, response.body).toBe(204)
    const confirmation = await confirmationTo(newEmail)
    expect(confirmation?.text).toContain(`${HUB_ORIGIN}/confirm-email#token=`)
    const notice = await mailTo(oldEmail, 'A new address was asked for your Hearth account')
    expect(notice?.text).toContain(newEmail)
    expect(notice?.text).not.toContain('#token=')

    // Nothing changes before the link is used.
    expect(await profile(hub.app, user)).toMatchObject({ email: oldEmail, emailVerified: false })
    expect((await login(hub.app, newEmail)).statusCode).toBe(401)
    expect((await login(hub.app, oldEmail)).statusCode).toBe(200)

    const confirmed = await confirm(hub.app, user, tokenIn(confirmation))
    expect(confirmed.statusCode, confirmed.body).toBe(204)
    expect(await profile(hub.app, user)).toMatchObject({ email: newEmail, emailVerified: true })
    // SSO tokens read the account, so the session's next one carries the new, verified address at once.
    const sso = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(sso.statusCode, sso.body).toBe(200)
    const claims = JSON.parse(Buffer.from(sso.json<{ token: string }>().token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>
    expect(claims).toMatchObject({ email: newEmail, email_verified: true })
    expect((await login(hub.app, newEmail)).statusCode).toBe(200)
    expect((await login(hub.app, oldEmail)).statusCode).toBe(401)

    // Used once.
    expect((await confirm(hub.app, user, tokenIn(confirmation))).json()).toEqual(INVALID_LINK)
    const events = await hub.handle.db.selectFrom('auditEvents').select(['type', 'detail']).where('userId', '=', user.userId).where('type', 'like', 'email.%').orderBy('createdAt').execute()
    expect(events.map(({ type, detail }) => [type, JSON.parse(detail) as unknown])).toEqual([
      ['email.change.requested', { from: oldEmail, to: newEmail }],
      ['email.changed', { from: oldEmail, to: newEmail }]
    ])
  })

  it('refuses an expired link, another account’s link and a made-up one alike (400)', async () => {
    const user = await signUpAndLogIn(hub.app)
    const newEmail = uniqueEmail('late')
    expect((await requestChange(hub.app, user, { email: newEmail, currentPassword: GOOD_PASSWORD })).statusCode).toBe(204)
    const token = tokenIn(await confirmationTo(newEmail))

    const stranger = await signUpAndLogIn(hub.app)
    expect((await confirm(hub.app, stranger, token)).json()).toEqual(INVALID_LINK)
    expect((await confirm(hub.app, user, 'A'.repeat(43))).json()).toEqual(INVALID_LINK)
    clock.advance(24 * 60 * 60_000 + 1)
    // The auth cookie lasts an hour: a day later the person signs in again.
    const later = await logIn(hub.app, user.email)
    const expired = await confirm(hub.app, later, token)
    expect(expired.statusCode).toBe(400)
    expect(expired.json()).toEqual(INVALID_LINK)
    expect(await profile(hub.app, later)).toMatchObject({ email: user.email })
  })

  it('answers 409 when the new address is taken, when asked and again when the link is used', async () => {
    const user = await signUpAndLogIn(hub.app)
    const other = await signUpAndLogIn(hub.app)
    const taken = await requestChange(hub.app, user, { email: other.email, currentPassword: GOOD_PASSWORD })
    expect(taken.statusCode).toBe(409)

    const newEmail = uniqueEmail('raced')
    expect((await requestChange(hub.app, user, { email: newEmail, currentPassword: GOOD_PASSWORD })).statusCode).toBe(204)
    const token = tokenIn(await confirmationTo(newEmail))
    await signUpAndLogIn(hub.app, newEmail)
    expect((await confirm(hub.app, user, token)).statusCode).toBe(409)
    expect(await profile(hub.app, user)).toMatchObject({ email: user.email })
  })

  it('refuses a wrong password (401), an invalid or unchanged address (400) and a missing CSRF token (403), mailing nothing', async () => {
    const user = await signUpAndLogIn(hub.app)
    const newEmail = uniqueEmail('refused')
    const wrong = await requestChange(hub.app, user, { email: newEmail, currentPassword: 'not my password' })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json()).toEqual({ error: 'Current password is incorrect' })
    expect((await requestChange(hub.app, user, { email: 'not an address', currentPassword: GOOD_PASSWORD })).json()).toEqual({ error: 'Email must be a valid email address' })
    expect((await requestChange(hub.app, user, { email: 'ad\u200bm@example.com', currentPassword: GOOD_PASSWORD })).statusCode).toBe(400)
    expect((await requestChange(hub.app, user, { email: user.email.toUpperCase(), currentPassword: GOOD_PASSWORD })).statusCode).toBe(400)
    expect((await requestChange(hub.app, user, { email: newEmail, currentPassword: GOOD_PASSWORD }, { cookie: user.headers.cookie ?? '' })).statusCode).toBe(403)
    const queued = await hub.handle.db.selectFrom('mailQueue').select('id').where('recipient', '=', newEmail).execute()
    expect(queued).toEqual([])
    expect(smtp.server.received.some((mail) => !Array.isArray(mail.to) && mail.to?.value[0]?.address === newEmail)).toBe(false)
  })
})
