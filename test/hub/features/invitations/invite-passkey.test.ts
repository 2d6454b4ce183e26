import { describe, expect, it, vi } from 'vitest'
import { anonymousHeaders, linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, HUB_ORIGIN, type SignedIn, logIn, pageCookies, signedInBy, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { type CreationOptionsJson, type RequestOptionsJson, softwareAuthenticator } from '../../../helpers/software-authenticator.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { createAccounts } from '../../../../src/hub/kernel/accounts/accounts.js'
import { INVITATION_REFUSED, SIGNUP_CLOSED } from '../../../../src/hub/kernel/accounts/invitations.js'
import { createUsersRepository } from '../../../../src/hub/kernel/accounts/repository.js'
import { CURRENT_PASSWORD_REQUIRED } from '../../../../src/hub/kernel/sessions/current-password.js'
import { NO_PASSWORD_TO_CONFIRM } from '../../../../src/hub/kernel/sessions/reauthenticate.js'
import { LAST_WAY_IN } from '../../../../src/hub/features/passkeys/account-routes.js'

const MANY_SIGN_UPS = { signupsPerIp: { limit: 10_000, windowMs: 60_000 } }
const SEVEN_DAYS = 7 * 24 * 60 * 60_000
const WRONG_CREDENTIALS = { error: 'Email or password is incorrect' }
const NEW_PASSWORD = 'a different passphrase for later'

type Authenticator = ReturnType<typeof softwareAuthenticator>

describe.each(databasesUnderTest())('an invited account made with a passkey on $name', (database) => {
  const smtp = useSmtpServer()
  const clock = testClock(new Date())
  const hub = useHubApp(database, () => ({ config: { signup: 'invite', smtpUrl: smtpUrlFor(smtp.server.port) }, now: clock.now, mailSenderIntervalMs: 50, rateLimits: MANY_SIGN_UPS }))

  const administrator = async (): Promise<SignedIn> => {
    const email = uniqueEmail('admin')
    await createAccounts(createUsersRepository(hub.handle.db)).create({ email, password: GOOD_PASSWORD }, clock.now())
    const admin = await logIn(hub.app, email)
    await hub.handle.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.userId).execute()
    return admin
  }
  const call = (user: SignedIn, method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    hub.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) })
  /** An invitation of a fresh address, sent by `admin`: its id, address, and the token of its mailed link. */
  const invitation = async (admin: SignedIn, groups: string[] = []) => {
    const email = uniqueEmail('invited')
    const sent = await call(admin, 'POST', '/api/admin/invitations', { email, groups })
    expect(sent.statusCode, sent.body).toBe(201)
    const token = linkToken((await mailsTo(smtp.server, email))[0], '/invite')
    return { id: sent.json<{ id: string }>().id, email, token }
  }
  const options = async (token: string) =>
    hub.app.inject({ method: 'POST', url: '/api/invitations/passkey/options', headers: await anonymousHeaders(hub.app), payload: { token } })
  const finish = async (payload: object) => hub.app.inject({ method: 'POST', url: '/api/invitations/passkey', headers: await anonymousHeaders(hub.app), payload })
  /** The whole ceremony, as the page runs it: options, the authenticator's answer, the account. */
  const makeWithPasskey = async (token: string, authenticator: Authenticator, extra: object = {}) => {
    const offered = await options(token)
    expect(offered.statusCode, offered.body).toBe(200)
    return finish({ token, response: authenticator.create(offered.json<CreationOptionsJson>()), ...extra })
  }
  const logInWith = (email: string, password: string) => hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
  const trailOf = async (userId: string) =>
    (await hub.handle.db.selectFrom('auditEvents').select(['type', 'detail']).where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute()).map((event) => ({
      type: event.type,
      detail: JSON.parse(event.detail) as unknown
    }))

  it("makes the invitation's account with a passkey: no password, its address proven, in the invitation's groups, signed in; the passkey signs in again", async () => {
    const admin = await administrator()
    const group = (await call(admin, 'POST', '/api/admin/groups', { name: `Passkey family ${process.pid}` })).json<{ id: string; name: string }>()
    const invited = await invitation(admin, [group.name])
    const authenticator = softwareAuthenticator(HUB_ORIGIN)

    const offered = await options(invited.token)
    expect(offered.statusCode, offered.body).toBe(200)
    const creation = offered.json<CreationOptionsJson & { user: { name: string }; authenticatorSelection: unknown }>()
    expect(creation.user.name).toBe(invited.email)
    expect(creation.authenticatorSelection).toEqual({ residentKey: 'preferred', userVerification: 'required', requireResidentKey: false })

    const made = await finish({ token: invited.token, response: authenticator.create(creation), name: 'My phone', locale: 'es' })
    expect(made.statusCode, made.body).toBe(201)
    const signedIn = signedInBy(made, invited.email)
    expect(made.json()).toEqual({ userId: signedIn.userId, idToken: expect.any(String), expiresAt: expect.any(String) })
    // The id the authenticator keeps as user handle is the account's.
    expect(Buffer.from(creation.user.id, 'base64url').toString()).toBe(signedIn.userId)

    const user = await hub.handle.db.selectFrom('users').selectAll().where('id', '=', signedIn.userId).executeTakeFirstOrThrow()
    expect(user).toMatchObject({ email: invited.email, passwordHash: null, emailVerified: 1, locale: 'es', role: 'member' })
    const members = await call(admin, 'GET', `/api/admin/groups/${group.id}`)
    expect(members.json<{ accounts: { userId: string }[] }>().accounts.map((account) => account.userId)).toEqual([signedIn.userId])
    const passkeys = await hub.app.inject({ method: 'GET', url: '/api/account/passkeys', headers: signedIn.headers })
    expect(passkeys.json<{ passkeys: { name: string }[] }>().passkeys.map((passkey) => passkey.name)).toEqual(['My phone'])
    expect(await trailOf(signedIn.userId)).toEqual([
      { type: 'signup', detail: { method: 'passkey' } },
      { type: 'invitation.used', detail: { invitationId: invited.id, by: admin.userId } },
      { type: 'passkey.added', detail: { passkey: expect.any(String), name: 'My phone' } },
      { type: 'signin', detail: { method: 'passkey' } }
    ])
    // The invitation is spent.
    expect(await options(invited.token).then((response) => [response.statusCode, response.json()])).toEqual([403, { error: INVITATION_REFUSED }])

    // The administrator's list counts the passkey, and the export holds the account as any other.
    const listed = await call(admin, 'GET', `/api/admin/users?query=${encodeURIComponent(invited.email)}`)
    expect(listed.json<{ users: { email: string; passkeys: number }[] }>().users).toEqual([expect.objectContaining({ email: invited.email, passkeys: 1 })])
    const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: signedIn.headers, payload: { format: 'json' } })
    expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200)
    expect(exported.body).toContain('My phone')
    expect(exported.body).not.toContain('passwordHash')

    // The passkey signs in, as any passkey does.
    const anonymous = await anonymousHeaders(hub.app)
    const request = await hub.app.inject({ method: 'POST', url: '/api/auth/passkey/options', headers: anonymous })
    const assertion = authenticator.get(request.json<RequestOptionsJson>())
    const again = await hub.app.inject({ method: 'POST', url: '/api/auth/passkey', headers: anonymous, payload: { response: assertion } })
    expect(again.statusCode, again.body).toBe(200)
  })

  it('refuses a used, withdrawn, expired or unknown invitation with the one message, at the options and at the account', async () => {
    const admin = await administrator()
    const used = await invitation(admin)
    expect((await makeWithPasskey(used.token, softwareAuthenticator(HUB_ORIGIN))).statusCode).toBe(201)
    const usedAgain = await options(used.token)
    expect([usedAgain.statusCode, usedAgain.json()]).toEqual([403, { error: INVITATION_REFUSED }])

    // Withdrawn between the options and the answer: the answer is refused too, and no account is made.
    const withdrawn = await invitation(admin)
    const offered = await options(withdrawn.token)
    expect((await call(admin, 'DELETE', `/api/admin/invitations/${withdrawn.id}`)).statusCode).toBe(204)
    const late = await finish({ token: withdrawn.token, response: softwareAuthenticator(HUB_ORIGIN).create(offered.json<CreationOptionsJson>()) })
    expect([late.statusCode, late.json()]).toEqual([403, { error: INVITATION_REFUSED }])
    expect(await hub.handle.db.selectFrom('users').select('id').where('email', '=', withdrawn.email).executeTakeFirst()).toBeUndefined()
    expect([(await options(withdrawn.token)).statusCode]).toEqual([403])

    const expired = await invitation(admin)
    clock.advance(SEVEN_DAYS)
    const afterAWeek = await options(expired.token)
    expect([afterAWeek.statusCode, afterAWeek.json()]).toEqual([403, { error: INVITATION_REFUSED }])

    const unknown = await options('x'.repeat(43))
    expect([unknown.statusCode, unknown.json()]).toEqual([403, { error: INVITATION_REFUSED }])
  })

  it('spends nothing when the ceremony fails: a foreign origin, a challenge of another invitation, a passkey registered already', async () => {
    const admin = await administrator()
    const invited = await invitation(admin)
    const authenticator = softwareAuthenticator(HUB_ORIGIN)

    const foreign = await finish({ token: invited.token, response: authenticator.create((await options(invited.token)).json<CreationOptionsJson>(), { origin: 'https://evil.example' }) })
    expect([foreign.statusCode, foreign.json()]).toEqual([400, { error: 'The passkey could not be verified' }])

    // Options of one invitation do not make the account of another.
    const other = await invitation(admin)
    const crossed = await finish({ token: invited.token, response: authenticator.create((await options(other.token)).json<CreationOptionsJson>()) })
    expect(crossed.statusCode).toBe(400)

    // A credential another account holds already: the whole account is undone, the invitation works still.
    const holder = await invitation(admin)
    const shared = softwareAuthenticator(HUB_ORIGIN)
    expect((await makeWithPasskey(holder.token, shared)).statusCode).toBe(201)
    const taken = await makeWithPasskey(invited.token, shared)
    expect([taken.statusCode, taken.json()]).toEqual([409, { error: 'This passkey is registered already' }])
    expect(await hub.handle.db.selectFrom('users').select('id').where('email', '=', invited.email).executeTakeFirst()).toBeUndefined()
    const stored = await hub.handle.db.selectFrom('invitations').select(['usedAt']).where('id', '=', invited.id).executeTakeFirstOrThrow()
    expect(stored.usedAt).toBeNull()
    expect((await makeWithPasskey(invited.token, authenticator)).statusCode).toBe(201)
  })

  it('refuses a password sign-in to the account exactly as a wrong password, and counts it the same', async () => {
    const admin = await administrator()
    const invited = await invitation(admin)
    const made = await makeWithPasskey(invited.token, softwareAuthenticator(HUB_ORIGIN))
    const { userId } = made.json<{ userId: string }>()

    const attempt = await logInWith(invited.email, GOOD_PASSWORD)
    expect([attempt.statusCode, attempt.json()]).toEqual([401, WRONG_CREDENTIALS])
    const unknown = await logInWith(uniqueEmail('nobody'), GOOD_PASSWORD)
    expect([unknown.statusCode, unknown.json()]).toEqual([401, WRONG_CREDENTIALS])
    // Counted toward the account's lockout as every wrong password is: ten in all, then 429.
    for (let tries = 1; tries < 10; tries++) expect((await logInWith(invited.email, `guess number ${tries} here`)).statusCode).toBe(401)
    expect((await logInWith(invited.email, 'one guess too many')).statusCode).toBe(429)
    await vi.waitFor(async () => {
      const failures = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', userId).where('type', '=', 'signin.failed').execute()
      expect(failures.length).toBeGreaterThanOrEqual(10)
      expect(JSON.parse(failures[0]?.detail ?? '{}')).toEqual({ reason: 'wrong-password' })
    })
  })

  it('keeps the last passkey of an account without a password (409), refuses a password to confirm it is them, and lets them set a first password', async () => {
    const admin = await administrator()
    const invited = await invitation(admin)
    const made = await makeWithPasskey(invited.token, softwareAuthenticator(HUB_ORIGIN))
    const person = signedInBy(made, invited.email)
    const listPasskeys = async () =>
      (await hub.app.inject({ method: 'GET', url: '/api/account/passkeys', headers: person.headers })).json<{ passkeys: { id: string }[] }>().passkeys

    const [only] = await listPasskeys()
    const kept = await call(person, 'DELETE', `/api/account/passkeys/${only?.id ?? ''}`)
    expect([kept.statusCode, kept.json()]).toEqual([409, { error: LAST_WAY_IN }])

    // With a second passkey, either may go, but not both.
    const second = softwareAuthenticator(HUB_ORIGIN)
    const secondOptions = await call(person, 'POST', '/api/account/passkeys/options')
    expect((await call(person, 'POST', '/api/account/passkeys', { response: second.create(secondOptions.json<CreationOptionsJson>()) })).statusCode).toBe(201)
    expect((await call(person, 'DELETE', `/api/account/passkeys/${only?.id ?? ''}`)).statusCode).toBe(204)
    const [last] = await listPasskeys()
    expect((await call(person, 'DELETE', `/api/account/passkeys/${last?.id ?? ''}`)).statusCode).toBe(409)

    const byPassword = await call(person, 'POST', '/api/auth/reauthenticate', { password: GOOD_PASSWORD })
    expect([byPassword.statusCode, byPassword.json()]).toEqual([403, { error: NO_PASSWORD_TO_CONFIRM }])

    // The account says it has no password, and its page offers to set one, asking no current one.
    const profile = await hub.app.inject({ method: 'GET', url: '/api/account', headers: person.headers })
    expect(profile.json()).toMatchObject({ email: invited.email, hasPassword: false })
    const page = await hub.app.inject({ method: 'GET', url: '/account', headers: pageCookies(person, { lang: 'en' }) })
    expect(page.body).toContain('Your account has no password: you sign in with a passkey.')
    expect(page.body).toContain('Set a password')
    expect(page.body).not.toContain('autocomplete="current-password"')
    const security = await hub.app.inject({ method: 'GET', url: '/account/security', headers: pageCookies(person, { lang: 'en' }) })
    expect(security.statusCode).toBe(200)
    expect(security.body).not.toContain('data-form="reauthenticate-password"')

    // A first password needs no current one, only the recent sign-in every password change needs.
    const set = await call(person, 'PUT', '/api/account/password', { newPassword: GOOD_PASSWORD })
    expect(set.statusCode, set.body).toBe(204)
    expect((await logInWith(invited.email, GOOD_PASSWORD)).statusCode).toBe(200)
    expect((await hub.app.inject({ method: 'GET', url: '/account', headers: pageCookies(person, { lang: 'en' }) })).body).toContain('autocomplete="current-password"')
    expect((await hub.app.inject({ method: 'GET', url: '/account/security', headers: pageCookies(person, { lang: 'en' }) })).body).toContain('data-form="reauthenticate-password"')
    // From now on the password is needed to change it, and the last passkey may go.
    const withoutCurrent = await call(person, 'PUT', '/api/account/password', { newPassword: NEW_PASSWORD })
    expect([withoutCurrent.statusCode, withoutCurrent.json()]).toEqual([400, { error: CURRENT_PASSWORD_REQUIRED }])
    expect((await call(person, 'DELETE', `/api/account/passkeys/${last?.id ?? ''}`)).statusCode).toBe(204)
  })

  it('changes its address and deletes itself on the recent sign-in alone, with no password to give', async () => {
    const admin = await administrator()
    const invited = await invitation(admin)
    const person = signedInBy(await makeWithPasskey(invited.token, softwareAuthenticator(HUB_ORIGIN)), invited.email)

    const moved = await call(person, 'POST', '/api/account/email', { email: uniqueEmail('moved') })
    expect(moved.statusCode, moved.body).toBe(204)
    // An account with a password still gives it.
    const withPassword = await administrator()
    const refused = await call(withPassword, 'POST', '/api/account/email', { email: uniqueEmail('moved') })
    expect([refused.statusCode, refused.json()]).toEqual([400, { error: CURRENT_PASSWORD_REQUIRED }])

    const deleted = await hub.app.inject({ method: 'DELETE', url: '/api/account', headers: person.headers, payload: {} })
    expect(deleted.statusCode, deleted.body).toBe(204)
    expect(await hub.handle.db.selectFrom('users').select('id').where('id', '=', person.userId).executeTakeFirst()).toBeUndefined()
  })

  it('sets a first password with a reset link, after which the password signs in', async () => {
    const admin = await administrator()
    const invited = await invitation(admin)
    expect((await makeWithPasskey(invited.token, softwareAuthenticator(HUB_ORIGIN))).statusCode).toBe(201)

    const asked = await hub.app.inject({ method: 'POST', url: '/api/auth/password-reset', headers: await anonymousHeaders(hub.app), payload: { email: invited.email } })
    expect(asked.statusCode, asked.body).toBe(204)
    const token = linkToken((await mailsTo(smtp.server, invited.email, 2))[1], '/reset-password')
    const reset = await hub.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', headers: await anonymousHeaders(hub.app), payload: { token, password: NEW_PASSWORD } })
    // 204: the address was proven by the invitation, so nothing added to the account goes.
    expect(reset.statusCode, reset.body).toBe(204)
    expect((await logInWith(invited.email, NEW_PASSWORD)).statusCode).toBe(200)
    expect(await hub.handle.db.selectFrom('passkeys').select('passkeys.id').innerJoin('users', 'users.id', 'passkeys.userId').where('users.email', '=', invited.email).execute()).toHaveLength(1)
  })
})

describe.each(databasesUnderTest())('an invited passkey with HUB_SIGNUP=closed on $name', (database) => {
  const hub = useHubApp(database, () => ({ config: { signup: 'closed' } }))

  it('refuses every invitation, as sign-up does: 403', async () => {
    const headers = await anonymousHeaders(hub.app)
    const offered = await hub.app.inject({ method: 'POST', url: '/api/invitations/passkey/options', headers, payload: { token: 'x'.repeat(43) } })
    expect([offered.statusCode, offered.json()]).toEqual([403, { error: SIGNUP_CLOSED }])
  })
})
