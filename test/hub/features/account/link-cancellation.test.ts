import { describe, expect, it } from 'vitest'
import { INVALID_VERIFICATION_LINK } from '../../../../src/hub/features/account/email-verification.js'
import { INVALID_RESET_LINK } from '../../../../src/hub/features/account/password-reset.js'
import { anonymousHeaders, linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, signUpAndLogIn, signedInBy, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const NEW_PASSWORD = 'a brand new passphrase'
const RESET_PASSWORD = 'yet another passphrase'
const INVALID_CONFIRMATION = { error: 'The confirmation link is invalid, used or expired' }

// A completed reset uses its link up, and asking again replaces the older one: see password-reset.test.ts.
describe.each(databasesUnderTest())('credential changes cancel pending links on $name', (database) => {
  const smtp = useSmtpServer()
  const hub = useHubApp(database, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))

  /** The token of the newest link to `path` once `count` mails reached the address (they may arrive in any order). */
  const newestLink = async (email: string, count: number, path: string): Promise<string> =>
    linkToken((await mailsTo(smtp.server, email, count)).filter((mail) => mail.text?.includes(`${path}#token=`)).at(-1), path)
  const requestReset = async (email: string) =>
    expect((await hub.app.inject({ method: 'POST', url: '/api/auth/password-reset', headers: await anonymousHeaders(hub.app), payload: { email } })).statusCode).toBe(204)
  const confirmReset = async (token: string) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', headers: await anonymousHeaders(hub.app), payload: { token, password: RESET_PASSWORD } })
  const login = (email: string, password: string) => hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
  const post = (user: SignedIn, url: string, payload: object) => hub.app.inject({ method: 'POST', url, headers: user.headers, payload })
  /** Asks to move `user` to `newEmail`: the token of the confirmation link mailed there. */
  const askAddressChange = async (user: SignedIn, newEmail: string) => {
    expect((await post(user, '/api/account/email', { email: newEmail, currentPassword: GOOD_PASSWORD })).statusCode).toBe(204)
    return newestLink(newEmail, 1, '/confirm-email')
  }

  it('a password change cancels the reset link asked for before it', async () => {
    const email = uniqueEmail('changed')
    const user = await signUpAndLogIn(hub.app, email)
    await requestReset(email)
    const resetToken = await newestLink(email, 2, '/reset-password')

    const changed = await hub.app.inject({ method: 'PUT', url: '/api/account/password', headers: user.headers, payload: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } })
    expect(changed.statusCode, changed.body).toBe(204)
    const refused = await confirmReset(resetToken)
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ error: INVALID_RESET_LINK })
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200)

    // A link asked for after the change works as usual.
    await requestReset(email)
    // 200: the address was not confirmed before, so the reset also says what it removed (none here).
    expect((await confirmReset(await newestLink(email, 4, '/reset-password'))).statusCode).toBe(200)
  })

  it('a confirmed address change cancels the verification and reset links mailed to the old address', async () => {
    const oldEmail = uniqueEmail('moving')
    const newEmail = uniqueEmail('moved')
    const user = await signUpAndLogIn(hub.app, oldEmail)
    const verificationToken = await newestLink(oldEmail, 1, '/verify-email')
    await requestReset(oldEmail)
    const resetToken = await newestLink(oldEmail, 2, '/reset-password')

    const confirmation = await askAddressChange(user, newEmail)
    expect((await post(user, '/api/account/email/confirm', { token: confirmation })).statusCode).toBe(204)

    const verification = await post(user, '/api/account/email/verify', { token: verificationToken })
    expect(verification.statusCode).toBe(400)
    expect(verification.json()).toEqual({ error: INVALID_VERIFICATION_LINK })
    const reset = await confirmReset(resetToken)
    expect(reset.statusCode).toBe(400)
    expect(reset.json()).toEqual({ error: INVALID_RESET_LINK })
    expect((await login(newEmail, GOOD_PASSWORD)).statusCode).toBe(200)
  })

  it('a password change cancels an address change asked for before it', async () => {
    const oldEmail = uniqueEmail('kept')
    const newEmail = uniqueEmail('unwanted')
    const user = await signUpAndLogIn(hub.app, oldEmail)
    const confirmation = await askAddressChange(user, newEmail)

    const changed = await hub.app.inject({ method: 'PUT', url: '/api/account/password', headers: user.headers, payload: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } })
    expect(changed.statusCode, changed.body).toBe(204)
    const refused = await post(user, '/api/account/email/confirm', { token: confirmation })
    expect([refused.statusCode, refused.json()]).toEqual([400, INVALID_CONFIRMATION])
    expect((await login(oldEmail, NEW_PASSWORD)).statusCode).toBe(200)
    expect((await login(newEmail, NEW_PASSWORD)).statusCode).toBe(401)
  })

  it('a completed password reset cancels an address change asked for before it', async () => {
    const oldEmail = uniqueEmail('recovered')
    const newEmail = uniqueEmail('hijack')
    const user = await signUpAndLogIn(hub.app, oldEmail)
    const confirmation = await askAddressChange(user, newEmail)
    await requestReset(oldEmail)
    // The verification link, the notice of the address change, the reset link.
    // 200: the first proof of the address (docs/account.md, "Account pre-hijacking").
    expect((await confirmReset(await newestLink(oldEmail, 3, '/reset-password'))).statusCode).toBe(200)

    const signedIn = signedInBy(await login(oldEmail, RESET_PASSWORD), oldEmail)
    const refused = await post(signedIn, '/api/account/email/confirm', { token: confirmation })
    expect([refused.statusCode, refused.json()]).toEqual([400, INVALID_CONFIRMATION])
    expect((await login(newEmail, RESET_PASSWORD)).statusCode).toBe(401)
  })
})
