import { describe, expect, it } from 'vitest'
import { INVALID_VERIFICATION_LINK } from '../../../../src/hub/features/account/email-verification.js'
import { anonymousHeaders, linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { HUB_ORIGIN, type SignedIn, logIn, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const VERIFY_SUBJECT = 'Confirm your address for Hearth'

describe.each(databasesUnderTest())('email verification on $name', (database) => {
  const smtp = useSmtpServer()
  const clock = testClock()
  const hub = useHubApp(database, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, now: clock.now, mailSenderIntervalMs: 50 }))

  const verify = (user: SignedIn, token: string) =>
    hub.app.inject({ method: 'POST', url: '/api/account/email/verify', headers: user.headers, payload: { token } })
  const resend = (user: SignedIn) => hub.app.inject({ method: 'POST', url: '/api/account/email/verification', headers: user.headers })
  const verificationMailsTo = async (email: string, count = 1) =>
    (await mailsTo(smtp.server, email, count)).filter((mail) => mail.subject === VERIFY_SUBJECT)
  const verifiedFlagOf = async (userId: string) =>
    (await hub.handle.db.selectFrom('users').select('emailVerified').where('id', '=', userId).executeTakeFirstOrThrow()).emailVerified
  const ssoClaimsOf = async (user: SignedIn) => {
    const sso = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(sso.statusCode, sso.body).toBe(200)
    return JSON.parse(Buffer.from(sso.json<{ token: string }>().token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>
  }

  it('mails a verification link on sign-up; using it marks the address verified, for this session and the next', async () => {
    const email = uniqueEmail('verify')
    const user = await signUpAndLogIn(hub.app, email)
    const [mail] = await verificationMailsTo(email)
    expect(mail?.text).toContain(`${HUB_ORIGIN}/verify-email#token=`)
    expect(mail?.html).toContain(`href="${HUB_ORIGIN}/verify-email#token=`)
    expect(await verifiedFlagOf(user.userId)).toBe(0)
    expect(await ssoClaimsOf(user)).toMatchObject({ email_verified: false })

    const token = linkToken(mail, '/verify-email')
    const verified = await verify(user, token)
    expect(verified.statusCode, verified.body).toBe(204)
    expect(await verifiedFlagOf(user.userId)).toBe(1)
    // At once, from the session opened before: SSO tokens read the account, not the cached session.
    expect(await ssoClaimsOf(user)).toMatchObject({ email_verified: true })
    const again = await logIn(hub.app, email)
    expect(JSON.parse(Buffer.from(again.idToken.split('.')[1] ?? '', 'base64url').toString())).toMatchObject({ email_verified: true })

    const used = await verify(user, token)
    expect(used.statusCode).toBe(400)
    expect(used.json()).toEqual({ error: INVALID_VERIFICATION_LINK })
    const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: again.headers, payload: { format: 'json' } })
    const trail = exported.json<{ datasets: { auditTrail: { type: string }[] } }>().datasets.auditTrail
    expect(trail.map(({ type }) => type)).toContain('email.verified')
  })

  it('refuses an unknown and an expired token with the same message, and asks for a session', async () => {
    const email = uniqueEmail('expired')
    const user = await signUpAndLogIn(hub.app, email)
    const token = linkToken((await verificationMailsTo(email))[0], '/verify-email')
    expect((await verify(user, 'A'.repeat(43))).json()).toEqual({ error: INVALID_VERIFICATION_LINK })
    const anonymous = await anonymousHeaders(hub.app)
    expect((await hub.app.inject({ method: 'POST', url: '/api/account/email/verify', headers: anonymous, payload: { token } })).statusCode).toBe(401)

    clock.advance(24 * 60 * 60_000)
    const fresh = await logIn(hub.app, email)
    const late = await verify(fresh, token)
    expect(late.statusCode).toBe(400)
    expect(late.json()).toEqual({ error: INVALID_VERIFICATION_LINK })
    expect(await verifiedFlagOf(user.userId)).toBe(0)
  })

  it('resends a link that replaces the first, at most 5 an hour, then 429 with Retry-After', async () => {
    const email = uniqueEmail('resend')
    const user = await signUpAndLogIn(hub.app, email)
    const first = linkToken((await verificationMailsTo(email))[0], '/verify-email')
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await resend(user)).statusCode).toBe(204)
      // Each delivered before the next is asked for, so the last mail holds the newest link.
      await verificationMailsTo(email, attempt + 1)
    }
    const refused = await resend(user)
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.json()).toEqual({ error: 'Too many verification mails asked for; try again later' })

    const mails = await verificationMailsTo(email, 6)
    expect(mails).toHaveLength(6)
    expect((await verify(user, first)).statusCode).toBe(400)
    expect((await verify(user, linkToken(mails[5], '/verify-email'))).statusCode).toBe(204)
  })

  it('sends nothing more once the address is verified', async () => {
    const email = uniqueEmail('done')
    const user = await signUpAndLogIn(hub.app, email)
    expect((await verify(user, linkToken((await verificationMailsTo(email))[0], '/verify-email'))).statusCode).toBe(204)
    expect((await resend(user)).statusCode).toBe(204)
    const other = uniqueEmail('marker')
    await signUpAndLogIn(hub.app, other)
    await verificationMailsTo(other)
    expect(await verificationMailsTo(email)).toHaveLength(1)
  })

  it('resends only to a signed-in account: 401 without a session', async () => {
    const anonymous = await anonymousHeaders(hub.app)
    expect((await hub.app.inject({ method: 'POST', url: '/api/account/email/verification', headers: anonymous })).statusCode).toBe(401)
  })
})
