import type { ParsedMail } from 'mailparser'
import * as openid from 'openid-client'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ADDRESS_NOT_VERIFIED } from '../../../../src/hub/kernel/sessions/verified-address.js'
import { PASSKEY_NOT_ACCEPTED } from '../../../../src/hub/features/passkeys/schemas.js'
import { totpCode } from '../../../../src/hub/features/two-step/totp.js'
import { anonymousHeaders, confirmAddress, linkToken, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, sessionHeaders, signUpAndLogIn, uniqueEmail } from '../../../helpers/hub-app.js'
import { CookieBrowser, authorizationRequest, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'
import { type CreationOptionsJson, type RequestOptionsJson, softwareAuthenticator } from '../../../helpers/software-authenticator.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { turnOnTwoStep } from '../../../helpers/two-step.js'

const NEW_PASSWORD = 'the owner’s own passphrase'
const CHANGED_SUBJECTS = ['Your Hearth password was changed', 'Se ha cambiado tu contraseña de Hearth']
const FIRST_PROOF_EN = 'The address had not been confirmed before: this reset was the first proof that it is yours'
const FIRST_PROOF_ES = 'La dirección no se había confirmado antes: este restablecimiento ha sido la primera prueba de que es tuya'

/**
 * Account pre-hijacking (Sudhodanan and Paverd, USENIX Security 2022): someone signs up with
 * another person's address, which they cannot verify, adds ways to sign in, and waits for the
 * owner to take the account back with a password reset (docs/account.md, "Account pre-hijacking").
 */
describe.each(databasesUnderTest())('account pre-hijacking on $name', { timeout: 30_000 }, (database) => {
  const smtp = useSmtpServer()
  const hub = useHubOnPort(database, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))
  let firstParty: openid.Configuration
  let thirdParty: openid.Configuration

  beforeAll(async () => {
    const secret = await registerClient(hub.handle, { id: 'family-wiki', name: 'Family wiki', firstParty: true })
    firstParty = await relyingParty(hub.issuer, 'family-wiki', secret)
    await registerClient(hub.handle, { id: 'photo-album', name: 'Photo album', public: true })
    thirdParty = await relyingParty(hub.issuer, 'photo-album', null)
  })

  const post = (url: string, headers: Record<string, string>, payload?: object) => hub.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) })
  const mailWithSubject = async (email: string, subjects: string[]): Promise<ParsedMail> => {
    let found: ParsedMail | undefined
    await vi.waitFor(
      () => {
        found = smtp.server.received.find((mail) => subjects.includes(mail.subject ?? '') && JSON.stringify(mail.to).includes(email))
        if (!found) throw new Error(`no mail "${subjects[0]}" to ${email} yet`)
      },
      { timeout: 10_000, interval: 20 }
    )
    return found as ParsedMail
  }
  /** The owner asks for a reset link and sets a new password with it; the confirmation's answer. */
  const ownerResets = async (email: string) => {
    expect((await post('/api/auth/password-reset', await anonymousHeaders(hub.app), { email })).statusCode).toBe(204)
    const token = linkToken(await mailWithSubject(email, ['Reset your Hearth password', 'Restablece tu contraseña de Hearth']), '/reset-password')
    return post('/api/auth/password-reset/confirm', await anonymousHeaders(hub.app), { token, password: NEW_PASSWORD })
  }
  const addPasskey = async (user: SignedIn, authenticator: ReturnType<typeof softwareAuthenticator>) => {
    const options = await post('/api/account/passkeys/options', user.headers)
    expect(options.statusCode, options.body).toBe(200)
    const added = await post('/api/account/passkeys', user.headers, { response: authenticator.create(options.json<CreationOptionsJson>()) })
    expect(added.statusCode, added.body).toBe(201)
  }
  const passkeySignIn = async (authenticator: ReturnType<typeof softwareAuthenticator>) => {
    const anonymous = await anonymousHeaders(hub.app)
    const options = await post('/api/auth/passkey/options', anonymous)
    expect(options.statusCode, options.body).toBe(200)
    return post('/api/auth/passkey', anonymous, { response: authenticator.get(options.json<RequestOptionsJson>()) })
  }
  /**
   * The code flow of an application, in a browser holding `user`'s hub session: the tokens it is
   * given. A third-party application asks for consent first, which is given and remembered.
   */
  const applicationTokens = async (user: SignedIn, application: openid.Configuration) => {
    const browser = new CookieBrowser(hub.issuer)
    browser.cookies.set('service-auth-token', user.authCookie)
    const request = await authorizationRequest(application)
    let { left, page } = await browser.follow(request.url.href)
    if (!left && page) {
      const action = /action="([^"]+\/consent)"/.exec(page.html)?.[1] ?? ''
      ;({ left, page } = await browser.postForm(new URL(action, hub.issuer).href, { decision: 'allow' }))
    }
    expect(left, page?.html).toBeDefined()
    return openid.authorizationCodeGrant(application, left as URL, request.checks)
  }
  /** Sets the account's flag as no HTTP request can: to stand for rows an earlier version of the hub let in. */
  const setVerified = (userId: string, verified: 0 | 1) => hub.handle.db.updateTable('users').set({ emailVerified: verified }).where('id', '=', userId).execute()

  it('ends what the earlier holder of an unverified address added when the owner resets: passkey, two-step secret, grant, sessions', async () => {
    const victim = uniqueEmail('victim')
    const attacker = await signUpAndLogIn(hub.app, victim)
    const authenticator = softwareAuthenticator(hub.issuer)

    // This hub refuses them both while the address is unproven...
    for (const url of ['/api/account/passkeys/options', '/api/account/totp']) {
      const refused = await post(url, attacker.headers)
      expect([refused.statusCode, refused.json()], url).toEqual([403, { error: ADDRESS_NOT_VERIFIED }])
    }
    // ...but an earlier version let them in: the rows it left, made through the same API with the
    // check stepped over, are what a reset must still clear.
    await setVerified(attacker.userId, 1)
    await addPasskey(attacker, authenticator)
    const { secret } = await turnOnTwoStep(hub.app, attacker, new Date())
    await setVerified(attacker.userId, 0)
    // Applications the attacker signed in to with the account: one holds a refresh token, the
    // other was allowed on the consent page, which remembers the answer.
    const tokens = await applicationTokens(attacker, firstParty)
    expect(tokens.refresh_token).toBeDefined()
    const consented = await applicationTokens(attacker, thirdParty)
    expect(await openid.fetchUserInfo(thirdParty, consented.access_token, attacker.userId)).toMatchObject({ sub: attacker.userId })
    // The passkey signs in: a second live session of the attacker's.
    const passkeySession = await passkeySignIn(authenticator)
    expect(passkeySession.statusCode, passkeySession.body).toBe(200)

    const confirmed = await ownerResets(victim)
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(confirmed.json()).toEqual({ removed: { passkeys: 1, twoStep: true, applications: 2, sessions: 2 } })

    // The attacker's ways in: sessions, passkey, grant.
    for (const headers of [attacker.headers, sessionHeaders(passkeySession)]) {
      expect((await hub.app.inject({ method: 'GET', url: '/api/account/sessions', headers })).statusCode).toBe(401)
    }
    const passkeyAfter = await passkeySignIn(authenticator)
    expect([passkeyAfter.statusCode, passkeyAfter.json()]).toEqual([401, { error: PASSKEY_NOT_ACCEPTED }])
    await expect(openid.refreshTokenGrant(firstParty, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
    expect(await openid.tokenIntrospection(firstParty, tokens.access_token)).toMatchObject({ active: false })
    await expect(openid.fetchUserInfo(thirdParty, consented.access_token, attacker.userId)).rejects.toBeDefined()

    // The owner signs in with the new password alone: the attacker's authenticator app no longer
    // stands in the way, and its codes prove nothing.
    expect((await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: victim, password: GOOD_PASSWORD } })).statusCode).toBe(401)
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: victim, password: NEW_PASSWORD } })
    expect(login.statusCode, login.body).toBe(200)
    expect(login.json()).not.toHaveProperty('mfaRequired')
    const ownerHeaders = sessionHeaders(login)
    const code = await post('/api/auth/reauthenticate', ownerHeaders, { code: totpCode(secret, new Date()) })
    expect(code.statusCode).toBe(400)
    const account = await hub.app.inject({ method: 'GET', url: '/api/account', headers: ownerHeaders })
    expect(account.json()).toMatchObject({ emailVerified: true })
    expect((await hub.app.inject({ method: 'GET', url: '/api/account/passkeys', headers: ownerHeaders })).json()).toEqual({ passkeys: [] })
    expect((await hub.app.inject({ method: 'GET', url: '/api/account/applications', headers: ownerHeaders })).json()).toEqual({ applications: [] })
    // The remembered consent is withdrawn too, as disconnecting the application would: the owner is asked.
    const consents = (await hub.app.inject({ method: 'GET', url: '/api/privacy/consent', headers: ownerHeaders })).json<{ current: Record<string, { granted: boolean }> }>()
    expect(consents.current['oidc:photo-album']).toMatchObject({ granted: false })
    // Now verified, the owner may add their own.
    await addPasskey({ ...attacker, headers: ownerHeaders }, softwareAuthenticator(hub.issuer))

    // The mail and the page say what happened.
    const notice = await mailWithSubject(victim, CHANGED_SUBJECTS)
    expect(notice.text).toContain(FIRST_PROOF_EN)
    expect(notice.text).toContain('its passkeys, two-step sign-in with its recovery codes, and the applications allowed to sign in with it')
    expect(notice.html).toContain(FIRST_PROOF_EN)
    const page = await hub.app.inject({ method: 'GET', url: '/login?notice=password-reset-first-proof' })
    expect(page.body).toContain('Your password was changed and your address is confirmed now. It had not been confirmed before')
    const audited = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', attacker.userId).where('type', '=', 'password.reset').executeTakeFirstOrThrow()
    expect(JSON.parse(audited.detail)).toEqual({ endedSessions: 2, firstProofOfAddress: true, removed: { passkeys: 1, twoStep: true, applications: 2, sessions: 2 } })
  })

  it('says so in Spanish to a Spanish account, and removes nothing that was not there', async () => {
    const email = uniqueEmail('dueña')
    const user = await signUpAndLogIn(hub.app, email)
    expect((await hub.app.inject({ method: 'PATCH', url: '/api/account', headers: user.headers, payload: { locale: 'es' } })).statusCode).toBe(200)
    const confirmed = await ownerResets(email)
    expect([confirmed.statusCode, confirmed.json()]).toEqual([200, { removed: { passkeys: 0, twoStep: false, applications: 0, sessions: 1 } }])
    const notice = await mailWithSubject(email, CHANGED_SUBJECTS)
    expect(notice.subject).toBe('Se ha cambiado tu contraseña de Hearth')
    expect(notice.text).toContain(FIRST_PROOF_ES)
    const page = await hub.app.inject({ method: 'GET', url: '/login?notice=password-reset-first-proof', headers: { 'accept-language': 'es' } })
    expect(page.body).toContain('Tu contraseña se cambió y tu dirección ya está confirmada. No se había confirmado antes')
  })

  it('leaves a verified account’s passkey and two-step sign-in alone: 204 as before, and the mail says nothing more', async () => {
    const email = uniqueEmail('verified')
    const owner = await signUpAndLogIn(hub.app, email)
    await confirmAddress(hub.app, hub.handle.db, owner)
    const authenticator = softwareAuthenticator(hub.issuer)
    await addPasskey(owner, authenticator)
    await turnOnTwoStep(hub.app, owner, new Date())

    const confirmed = await ownerResets(email)
    expect([confirmed.statusCode, confirmed.body]).toEqual([204, ''])
    expect((await passkeySignIn(authenticator)).statusCode).toBe(200)
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: NEW_PASSWORD } })
    expect(login.json()).toMatchObject({ mfaRequired: true })
    const notice = await mailWithSubject(email, CHANGED_SUBJECTS)
    expect(notice.text).not.toContain(FIRST_PROOF_EN)
  })
})
