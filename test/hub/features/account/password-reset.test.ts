import { describe, expect, it } from 'vitest'
import { INVALID_RESET_LINK } from '../../../../src/hub/features/account/password-reset.js'
import { SESSION_CACHE_TTL_MS } from '../../../../src/hub/kernel/sessions/sessions.js'
import { anonymousHeaders, confirmAddress, linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, HUB_ORIGIN, sessionHeaders, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const NEW_PASSWORD = 'a brand new passphrase'
const RESET_SUBJECT = 'Reset your Hearth password'

describe.each(databasesUnderTest())('password reset on $name', (database) => {
  const smtp = useSmtpServer()
  const clock = testClock()
  const hub = useHubApp(database, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, now: clock.now, mailSenderIntervalMs: 50 }))

  const requestReset = async (email: string, ip = '10.2.0.1') =>
    hub.app.inject({ method: 'POST', url: '/api/auth/password-reset', headers: await anonymousHeaders(hub.app), payload: { email }, remoteAddress: ip })
  const confirm = async (token: string, password = NEW_PASSWORD) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', headers: await anonymousHeaders(hub.app), payload: { token, password } })
  const login = (email: string, password: string) => hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: '10.2.9.9' })
  const resetMailsTo = async (email: string, count = 1) =>
    (await mailsTo(smtp.server, email, count + 1)).filter((mail) => mail.subject === RESET_SUBJECT)
  const auditTypesOf = async (userId: string) =>
    (await hub.handle.db.selectFrom('auditEvents').select('type').where('userId', '=', userId).execute()).map(({ type }) => type)

  it('runs the whole reset: mail, link, new password; every old session ends, the old password is refused; a first proof of the address says so', async () => {
    const email = uniqueEmail('reset')
    const user = await signUpAndLogIn(hub.app, email)
    const other = await signUpAndLogIn(hub.app, uniqueEmail('bystander'))
    // This instance has read the session, so it holds a copy in its cache.
    expect((await hub.app.inject({ method: 'GET', url: '/api/account/sessions', headers: user.headers })).statusCode).toBe(200)

    const requested = await requestReset(`  ${email.toUpperCase()} `)
    expect(requested.statusCode, requested.body).toBe(204)
    // The sign-up's verification mail, then the reset's.
    const [mail] = await resetMailsTo(email)
    expect(mail?.text).toContain(`${HUB_ORIGIN}/reset-password#token=`)
    expect(mail?.html).toContain(`href="${HUB_ORIGIN}/reset-password#token=`)
    const token = linkToken(mail, '/reset-password')

    const confirmed = await confirm(token)
    // The address was not verified: this reset proves it first, and says what it removed (nothing here but the session).
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.json()).toEqual({ removed: { passkeys: 0, twoStep: false, applications: 0, sessions: 1 } })
    // Ended at once on this instance, cache or not; the bystander's session stays.
    expect((await hub.app.inject({ method: 'GET', url: '/api/account/sessions', headers: user.headers })).statusCode).toBe(401)
    expect((await hub.app.inject({ method: 'GET', url: '/api/account/sessions', headers: other.headers })).statusCode).toBe(200)
    expect(await hub.handle.db.selectFrom('sessions').select('id').where('userId', '=', user.userId).execute()).toEqual([])

    expect((await login(email, GOOD_PASSWORD)).statusCode).toBe(401)
    const signedIn = await login(email, NEW_PASSWORD)
    expect(signedIn.statusCode, signedIn.body).toBe(200)

    // The link reached the address: it is verified now, and the new session's ID token says so.
    const row = await hub.handle.db.selectFrom('users').select('emailVerified').where('id', '=', user.userId).executeTakeFirstOrThrow()
    expect(row.emailVerified).toBe(1)
    const idToken = signedIn.json<{ idToken: string }>().idToken
    expect(JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString())).toMatchObject({ email_verified: true })

    const notices = (await mailsTo(smtp.server, email, 3)).filter((received) => received.subject === 'Your Hearth password was changed')
    expect(notices).toHaveLength(1)
    expect(notices[0]?.text).toContain(`${HUB_ORIGIN}/forgot-password`)

    const types = await auditTypesOf(user.userId)
    expect(types).toEqual(expect.arrayContaining(['password.reset.requested', 'password.reset']))
    // And the person reads them in their export.
    const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: sessionHeaders(signedIn), payload: { format: 'json' } })
    expect(exported.statusCode, exported.body).toBe(200)
    const trail = exported.json<{ datasets: { auditTrail: { type: string; detail: unknown }[] } }>().datasets.auditTrail
    expect(trail.map(({ type }) => type)).toEqual(expect.arrayContaining(['password.reset.requested', 'password.reset']))
    expect(trail.find(({ type }) => type === 'password.reset')?.detail).toEqual({ endedSessions: 1, firstProofOfAddress: true, removed: { passkeys: 0, twoStep: false, applications: 0, sessions: 1 } })
    expect(exported.body).not.toContain(token)
    const events = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', user.userId).execute()
    expect(JSON.stringify(events)).not.toContain(token)
  })

  it('answers an unknown address as a known one, 204, and mails nothing', async () => {
    const unknown = uniqueEmail('nobody')
    const response = await requestReset(unknown)
    expect(response.statusCode).toBe(204)
    expect(response.body).toBe('')
    // A known address asked for after it is mailed; the unknown one, queued first if at all, was not.
    const known = uniqueEmail('known')
    await signUpAndLogIn(hub.app, known)
    expect((await requestReset(known)).statusCode).toBe(204)
    await resetMailsTo(known)
    expect(smtp.server.received.filter((mail) => JSON.stringify(mail.to).includes(unknown))).toEqual([])
    expect(await hub.handle.db.selectFrom('mailQueue').select('id').where('recipient', '=', unknown).execute()).toEqual([])
  })

  it('uses a token once, and only the newest one', async () => {
    const email = uniqueEmail('once')
    // Confirmed, so the reset answers as it always has: 204.
    await confirmAddress(hub.app, hub.handle.db, await signUpAndLogIn(hub.app, email), clock.now())
    await requestReset(email)
    const first = linkToken((await resetMailsTo(email, 1))[0], '/reset-password')
    await requestReset(email)
    const second = linkToken((await resetMailsTo(email, 2))[1], '/reset-password')

    const replaced = await confirm(first)
    expect(replaced.statusCode).toBe(400)
    expect(replaced.json()).toEqual({ error: INVALID_RESET_LINK })
    expect((await confirm(second)).statusCode).toBe(204)
    const used = await confirm(second, 'yet another passphrase')
    expect(used.statusCode).toBe(400)
    expect(used.json()).toEqual({ error: INVALID_RESET_LINK })
    expect((await confirm('A'.repeat(43))).json()).toEqual({ error: INVALID_RESET_LINK })
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200)
  })

  it('refuses a token past its 30 minutes with the same message', async () => {
    const email = uniqueEmail('late')
    await signUpAndLogIn(hub.app, email)
    await requestReset(email)
    const token = linkToken((await resetMailsTo(email))[0], '/reset-password')
    clock.advance(30 * 60_000 + SESSION_CACHE_TTL_MS)
    const late = await confirm(token)
    expect(late.statusCode).toBe(400)
    expect(late.json()).toEqual({ error: INVALID_RESET_LINK })
    expect((await login(email, GOOD_PASSWORD)).statusCode).toBe(200)
  })

  it('applies the sign-up password rules and leaves the link working after a refused password', async () => {
    const email = uniqueEmail('rules')
    await signUpAndLogIn(hub.app, email)
    await requestReset(email)
    const token = linkToken((await resetMailsTo(email))[0], '/reset-password')
    const short = await confirm(token, 'short')
    expect(short.statusCode).toBe(400)
    expect(short.json()).toEqual({ error: 'Password must be at least 8 characters' })
    expect((await confirm(token, 'password1')).json()).toEqual({ error: 'Password is too common; choose one that is harder to guess' })
    // 200: the first proof of the address.
    expect((await confirm(token)).statusCode).toBe(200)
  })

  it('allows 5 requests an hour per address, known or not, then 429 with Retry-After', async () => {
    for (const email of [uniqueEmail('limited-unknown'), await signUpAndLogIn(hub.app, uniqueEmail('limited')).then(({ email }) => email)]) {
      for (let attempt = 1; attempt <= 5; attempt += 1) expect((await requestReset(email, `10.3.0.${attempt}`)).statusCode).toBe(204)
      const refused = await requestReset(email, '10.3.0.9')
      expect(refused.statusCode).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(refused.json()).toEqual({ error: 'Too many password-reset requests; try again later' })
    }
  })

  it('allows 20 requests an hour per IP across addresses, then 429', async () => {
    for (let attempt = 1; attempt <= 20; attempt += 1) expect((await requestReset(uniqueEmail('spray'), '10.4.0.1')).statusCode).toBe(204)
    const refused = await requestReset(uniqueEmail('spray'), '10.4.0.1')
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBeDefined()
    expect((await requestReset(uniqueEmail('spray'), '10.4.0.2')).statusCode).toBe(204)
  })

  it('refuses a request without the CSRF token: 403', async () => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: uniqueEmail() } })
    expect(response.statusCode).toBe(403)
  })
})
