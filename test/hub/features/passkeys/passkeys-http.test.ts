import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/shared/database/schema.js'
import type { App } from '../../../../src/shared/http/server.js'
import { anonymousHeaders, confirmAddress, signUpConfirmedAndLogIn, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { ADDRESS_NOT_VERIFIED } from '../../../../src/hub/kernel/sessions/verified-address.js'
import { SECOND_FACTOR_REQUIRED } from '../../../../src/hub/features/two-step/second-factor.js'
import { RECENT_SIGN_IN_CHALLENGE, RECENT_SIGN_IN_MS, RECENT_SIGN_IN_REQUIRED } from '../../../../src/hub/kernel/sessions/recent-sign-in.js'
import { GOOD_PASSWORD, HUB_ORIGIN, type SignedIn, cookieHeader, cookiesSetBy, logIn, sessionHeaders, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { type CreationOptionsJson, type RequestOptionsJson, softwareAuthenticator } from '../../../helpers/software-authenticator.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { passwordStep, turnOnTwoStep } from '../../../helpers/two-step.js'

const PASSKEYS = '/api/account/passkeys'
const ICLOUD_KEYCHAIN = 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd'
const FIVE_MINUTES = 5 * 60_000

type Authenticator = ReturnType<typeof softwareAuthenticator>
interface ListedPasskey {
  id: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

const registrationOptions = async (app: App, user: SignedIn) => {
  const response = await app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<CreationOptionsJson & Record<string, unknown>>()
}
const addPasskey = (app: App, user: SignedIn, payload: object, headers = user.headers) => app.inject({ method: 'POST', url: PASSKEYS, headers, payload })
const listPasskeys = async (app: App, user: SignedIn) => {
  const response = await app.inject({ method: 'GET', url: PASSKEYS, headers: { cookie: user.headers.cookie ?? '' } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ passkeys: ListedPasskey[] }>().passkeys
}
/** A passkey made by `authenticator` on `user`'s account, through the API. */
const registered = async (app: App, user: SignedIn, authenticator: Authenticator, name?: string): Promise<ListedPasskey> => {
  const response = await addPasskey(app, user, { response: authenticator.create(await registrationOptions(app, user)), ...(name === undefined ? {} : { name }) })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<ListedPasskey>()
}
const signInOptions = async (app: App, headers: Record<string, string>) => {
  const response = await app.inject({ method: 'POST', url: '/api/auth/passkey/options', headers })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<RequestOptionsJson & Record<string, unknown>>()
}
const signInWith = (app: App, headers: Record<string, string>, response: object) => app.inject({ method: 'POST', url: '/api/auth/passkey', headers, payload: { response } })
/** The details of the account's audit events of one type, oldest first. */
async function eventsOf(db: Kysely<Database>, userId: string, type: string): Promise<unknown[]> {
  const rows = await db.selectFrom('auditEvents').select('detail').where('userId', '=', userId).where('type', '=', type).orderBy('createdAt').execute()
  return rows.map(({ detail }) => JSON.parse(detail) as unknown)
}

describe.each(databasesUnderTest())('passkeys over HTTP on $name', (database) => {
  const smtp = useSmtpServer()
  const clock = testClock()
  // Every test signs up its own accounts, from one address.
  const rateLimits = { signupsPerIp: { limit: 1000, windowMs: 60_000 } }
  const hub = useHubApp(database, () => ({ now: clock.now, config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50, rateLimits }))
  const mailsTo = (email: string) => smtp.server.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === email && !mail.text?.includes('#token='))
  const events = (userId: string, type: string) => eventsOf(hub.handle.db, userId, type)

  describe('adding one', () => {
    it('refuses an account whose address is not confirmed, 403 at the options and at storing, before any recent sign-in is asked for; confirmed, it may', async () => {
      const user = await signUpAndLogIn(hub.app)
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      const refusal = { error: ADDRESS_NOT_VERIFIED }
      const options = await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers })
      expect([options.statusCode, options.json()]).toEqual([403, refusal])
      // Options from before this rule do not help: storing is refused as well.
      await hub.handle.db.updateTable('users').set({ emailVerified: 1 }).where('id', '=', user.userId).execute()
      const earlier = await registrationOptions(hub.app, user)
      await hub.handle.db.updateTable('users').set({ emailVerified: 0 }).where('id', '=', user.userId).execute()
      const stored = await addPasskey(hub.app, user, { response: authenticator.create(earlier) })
      expect([stored.statusCode, stored.json()]).toEqual([403, refusal])
      clock.advance(RECENT_SIGN_IN_MS + 1)
      expect((await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers })).statusCode).toBe(403)
      expect(await listPasskeys(hub.app, user)).toEqual([])

      await confirmAddress(hub.app, hub.handle.db, user, clock.now())
      expect((await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers })).statusCode).toBe(401)
      expect((await hub.app.inject({ method: 'POST', url: '/api/auth/reauthenticate', headers: user.headers, payload: { password: GOOD_PASSWORD } })).statusCode).toBe(204)
      await registered(hub.app, user, authenticator)
    })

    it('offers creation options for this hub, asking for user verification and a discoverable credential', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const options = await registrationOptions(hub.app, user)
      expect(options).toMatchObject({
        rp: { id: 'localhost', name: 'Hearth' },
        user: { name: user.email, displayName: user.email },
        attestation: 'none',
        timeout: FIVE_MINUTES,
        excludeCredentials: [],
        authenticatorSelection: { residentKey: 'preferred', requireResidentKey: false, userVerification: 'required' }
      })
      expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect((options.pubKeyCredParams as { alg: number }[]).map(({ alg }) => alg)).toContain(-7)
      // The user handle is the account's id, which names no one.
      expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(user.userId)
    })

    it('stores the passkey (201), lists it, mails a notice and audits it', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const added = await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN))
      expect(added).toEqual({ id: expect.any(String), name: 'Passkey', createdAt: clock.now().toISOString() })
      expect(await listPasskeys(hub.app, user)).toEqual([{ ...added, lastUsedAt: null }])
      await expect.poll(() => mailsTo(user.email).length, { timeout: 10_000 }).toBe(1)
      const [notice] = mailsTo(user.email)
      expect(notice?.subject).toBe('A passkey was added to your Hearth account')
      expect(notice?.text).toContain('a passkey named "Passkey"')
      expect(notice?.text).toContain(`${HUB_ORIGIN}/account/security`)
      expect(await events(user.userId, 'passkey.added')).toEqual([{ passkey: added.id, name: 'Passkey' }])
    })

    it('writes the notice in the account’s language', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      expect((await hub.app.inject({ method: 'PATCH', url: '/api/account', headers: user.headers, payload: { locale: 'es' } })).statusCode).toBe(200)
      await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN), 'Portátil')
      await expect.poll(() => mailsTo(user.email).length, { timeout: 10_000 }).toBe(1)
      expect(mailsTo(user.email)[0]?.subject).toBe('Se ha añadido una llave de acceso a tu cuenta de Hearth')
    })

    it('names it after a known provider, or as the person typed it, trimmed', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      expect((await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN, ICLOUD_KEYCHAIN))).name).toBe('iCloud Keychain')
      expect((await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN, ICLOUD_KEYCHAIN), '  Work laptop  ')).name).toBe('Work laptop')
    })

    it('refuses a name of no visible characters, too long or with invisible ones (400), without using up the ceremony', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const response = softwareAuthenticator(HUB_ORIGIN).create(await registrationOptions(hub.app, user))
      for (const [name, error] of [
        ['   ', 'Passkey name must not be empty'],
        ['x'.repeat(65), 'Passkey name must be at most 64 characters'],
        ['Work\u200Blaptop', 'Passkey name must not contain control or invisible characters']
      ] as const) {
        const refused = await addPasskey(hub.app, user, { response, name })
        expect(refused.statusCode, name).toBe(400)
        expect(refused.json()).toEqual({ error })
      }
      expect((await addPasskey(hub.app, user, { response, name: 'x'.repeat(64) })).statusCode).toBe(201)
    })

    it('excludes the account’s passkeys from new options', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      expect((await registrationOptions(hub.app, user)).excludeCredentials).toEqual([{ id: authenticator.credentialId, type: 'public-key', transports: ['internal'] }])
    })

    it('uses a challenge once, in the session that asked for it, within 5 minutes (400 otherwise)', async () => {
      const email = uniqueEmail('challenge')
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), email)
      const expired = 'This passkey request expired, was already used or was not made in this session; begin again'

      const once = softwareAuthenticator(HUB_ORIGIN).create(await registrationOptions(hub.app, user))
      expect((await addPasskey(hub.app, user, { response: once })).statusCode).toBe(201)
      const again = await addPasskey(hub.app, user, { response: once })
      expect(again.statusCode).toBe(400)
      expect(again.json()).toEqual({ error: expired })

      const otherSession = await logIn(hub.app, email)
      const elsewhere = await addPasskey(hub.app, otherSession, { response: softwareAuthenticator(HUB_ORIGIN).create(await registrationOptions(hub.app, user)) })
      expect(elsewhere.statusCode).toBe(400)
      expect(elsewhere.json()).toEqual({ error: expired })

      const late = softwareAuthenticator(HUB_ORIGIN).create(await registrationOptions(hub.app, user))
      clock.advance(FIVE_MINUTES)
      const tooLate = await addPasskey(hub.app, user, { response: late })
      expect(tooLate.statusCode).toBe(400)
      expect(tooLate.json()).toEqual({ error: expired })
      expect(await listPasskeys(hub.app, user)).toHaveLength(1)
    })

    it('refuses a credential made for another site, on another page, or without user verification (400)', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      for (const overrides of [{ rpId: 'evil.example' }, { origin: 'https://evil.example' }, { userVerified: false }]) {
        const response = softwareAuthenticator(HUB_ORIGIN).create(await registrationOptions(hub.app, user), overrides)
        const refused = await addPasskey(hub.app, user, { response })
        expect(refused.statusCode, JSON.stringify(overrides)).toBe(400)
        expect(refused.json()).toEqual({ error: 'The passkey could not be verified' })
      }
      expect(await listPasskeys(hub.app, user)).toEqual([])
    })

    it('refuses a credential registered already, to any account (409)', async () => {
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now()), authenticator)
      const other = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const twice = await addPasskey(hub.app, other, { response: authenticator.create(await registrationOptions(hub.app, other)) })
      expect(twice.statusCode).toBe(409)
      expect(twice.json()).toEqual({ error: 'This passkey is registered already' })
      expect(await listPasskeys(hub.app, other)).toEqual([])
    })

    it('holds at most 20 an account: at the cap both the options and a ceremony begun before it are refused (409)', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      for (let count = 0; count < 19; count += 1) await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN))
      const begunBefore = await registrationOptions(hub.app, user)
      await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN))
      const atCap = { error: 'An account holds at most 20 passkeys; remove one to add another' }

      const options = await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers })
      expect([options.statusCode, options.json()]).toEqual([409, atCap])
      const finished = await addPasskey(hub.app, user, { response: softwareAuthenticator(HUB_ORIGIN).create(begunBefore) })
      expect([finished.statusCode, finished.json()]).toEqual([409, atCap])
      const passkeys = await listPasskeys(hub.app, user)
      expect(passkeys).toHaveLength(20)

      // Removing one makes room again.
      expect((await hub.app.inject({ method: 'DELETE', url: `${PASSKEYS}/${passkeys[0]?.id}`, headers: user.headers })).statusCode).toBe(204)
      await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN))
    })

    it('refuses a body that is not a credential (400)', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      for (const payload of [{}, { response: {} }, { response: { id: 'x', rawId: 'x', type: 'public-key', clientExtensionResults: {}, response: {} } }]) {
        expect((await addPasskey(hub.app, user, payload)).statusCode, JSON.stringify(payload)).toBe(400)
      }
    })
  })

  describe('managing them', () => {
    it('needs a session (401) and the CSRF header (403)', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const passkey = await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN))
      const anonymous = await anonymousHeaders(hub.app)
      for (const [method, url] of [
        ['GET', PASSKEYS],
        ['POST', `${PASSKEYS}/options`],
        ['POST', PASSKEYS],
        ['PATCH', `${PASSKEYS}/${passkey.id}`],
        ['DELETE', `${PASSKEYS}/${passkey.id}`]
      ] as const) {
        expect((await hub.app.inject({ method, url, headers: anonymous, payload: method === 'GET' ? undefined : { name: 'x' } })).statusCode, `${method} ${url}`).toBe(401)
        if (method !== 'GET') expect((await hub.app.inject({ method, url, headers: { cookie: user.headers.cookie ?? '' }, payload: { name: 'x' } })).statusCode, `${method} ${url}`).toBe(403)
      }
      expect(await listPasskeys(hub.app, user)).toEqual([{ ...passkey, lastUsedAt: null }])
    })

    it('renames one (200), audited, with the rules of a new name', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const passkey = await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN))
      const renamed = await hub.app.inject({ method: 'PATCH', url: `${PASSKEYS}/${passkey.id}`, headers: user.headers, payload: { name: ' Phone ' } })
      expect(renamed.statusCode, renamed.body).toBe(200)
      expect(renamed.json()).toEqual({ ...passkey, name: 'Phone', lastUsedAt: null })
      expect(await listPasskeys(hub.app, user)).toEqual([{ ...passkey, name: 'Phone', lastUsedAt: null }])
      expect(await events(user.userId, 'passkey.renamed')).toEqual([{ passkey: passkey.id, name: 'Phone' }])
      const empty = await hub.app.inject({ method: 'PATCH', url: `${PASSKEYS}/${passkey.id}`, headers: user.headers, payload: { name: '' } })
      expect(empty.statusCode).toBe(400)
      expect(empty.json()).toEqual({ error: 'Passkey name must not be empty' })
    })

    it('removes one (204): it no longer signs in, and the removal is audited', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      const passkey = await registered(hub.app, user, authenticator)
      const removed = await hub.app.inject({ method: 'DELETE', url: `${PASSKEYS}/${passkey.id}`, headers: user.headers })
      expect(removed.statusCode, removed.body).toBe(204)
      expect(await listPasskeys(hub.app, user)).toEqual([])
      expect(await events(user.userId, 'passkey.removed')).toEqual([{ passkey: passkey.id }])
      const anonymous = await anonymousHeaders(hub.app)
      const signIn = await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous)))
      expect(signIn.statusCode).toBe(401)
    })

    it('answers 404 for another person’s passkey or an unknown id, and leaves it as it was', async () => {
      const owner = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const passkey = await registered(hub.app, owner, softwareAuthenticator(HUB_ORIGIN))
      const other = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      for (const id of [passkey.id, 'no-such-passkey']) {
        const rename = await hub.app.inject({ method: 'PATCH', url: `${PASSKEYS}/${id}`, headers: other.headers, payload: { name: 'Mine now' } })
        expect(rename.statusCode).toBe(404)
        expect(rename.json()).toEqual({ error: 'Passkey not found' })
        const remove = await hub.app.inject({ method: 'DELETE', url: `${PASSKEYS}/${id}`, headers: other.headers })
        expect(remove.statusCode).toBe(404)
        expect(remove.json()).toEqual({ error: 'Passkey not found' })
      }
      expect(await listPasskeys(hub.app, owner)).toEqual([{ ...passkey, lastUsedAt: null }])
      expect(await listPasskeys(hub.app, other)).toEqual([])
    })

    it('exports them by id, name and dates only: no key, no credential id', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      const passkey = await registered(hub.app, user, authenticator, 'Laptop')
      const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' } })
      expect(exported.statusCode, exported.body).toBe(200)
      const { datasets } = exported.json<{ datasets: { passkeys: unknown[]; auditTrail: { type: string }[] } }>()
      expect(datasets.passkeys).toEqual([{ id: passkey.id, recordedAt: passkey.createdAt, name: 'Laptop', lastUsedAt: null }])
      expect(datasets.auditTrail.map(({ type }) => type)).toContain('passkey.added')
      expect(exported.body).not.toContain(authenticator.credentialId)
    })
  })

  describe('recent sign-in', () => {
    const TEN_MINUTES = 10 * 60_000
    const reauthenticate = (user: SignedIn, payload: object) => hub.app.inject({ method: 'POST', url: '/api/auth/reauthenticate', headers: user.headers, payload })
    const expectRecentSignInRequired = (response: Awaited<ReturnType<App['inject']>>) => {
      expect(response.statusCode, response.body).toBe(401)
      expect(response.json()).toEqual({ error: RECENT_SIGN_IN_REQUIRED })
      expect(response.headers['www-authenticate']).toBe(RECENT_SIGN_IN_CHALLENGE)
    }

    it('is needed to add or remove a passkey, not to list or rename one', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const passkey = await registered(hub.app, user, softwareAuthenticator(HUB_ORIGIN))
      const response = softwareAuthenticator(HUB_ORIGIN).create(await registrationOptions(hub.app, user))
      clock.advance(TEN_MINUTES + 1)
      expectRecentSignInRequired(await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers }))
      expectRecentSignInRequired(await addPasskey(hub.app, user, { response }))
      expectRecentSignInRequired(await hub.app.inject({ method: 'DELETE', url: `${PASSKEYS}/${passkey.id}`, headers: user.headers }))
      expect(await listPasskeys(hub.app, user)).toHaveLength(1)
      expect((await hub.app.inject({ method: 'PATCH', url: `${PASSKEYS}/${passkey.id}`, headers: user.headers, payload: { name: 'Old phone' } })).statusCode).toBe(200)
      expect((await reauthenticate(user, { password: GOOD_PASSWORD })).statusCode).toBe(204)
      expect((await addPasskey(hub.app, user, { response: softwareAuthenticator(HUB_ORIGIN).create(await registrationOptions(hub.app, user)) })).statusCode).toBe(201)
      expect((await hub.app.inject({ method: 'DELETE', url: `${PASSKEYS}/${passkey.id}`, headers: user.headers })).statusCode).toBe(204)
    })

    it('is given by an assertion of one of the account’s passkeys, over a sign-in challenge', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      clock.advance(TEN_MINUTES + 1)
      const options = await signInOptions(hub.app, user.headers)
      expect((await reauthenticate(user, { passkey: authenticator.get(options) })).statusCode).toBe(204)
      expect((await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers })).statusCode).toBe(200)
      expect(await events(user.userId, 'session.reauthenticated')).toEqual([expect.objectContaining({ method: 'passkey' })])
      // The challenge was used up.
      const again = await reauthenticate(user, { passkey: authenticator.get(options) })
      expect(again.statusCode).toBe(401)
      expect(again.json()).toEqual({ error: 'The passkey was not accepted' })
    })

    it('with two-step sign-in on, is given by a passkey where the password alone is refused', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      await turnOnTwoStep(hub.app, user, clock.now())
      clock.advance(TEN_MINUTES + 1)
      const password = await reauthenticate(user, { password: GOOD_PASSWORD })
      expect([password.statusCode, password.json()]).toEqual([403, { error: SECOND_FACTOR_REQUIRED }])
      expectRecentSignInRequired(await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers }))
      expect((await reauthenticate(user, { passkey: authenticator.get(await signInOptions(hub.app, user.headers)) })).statusCode).toBe(204)
      expect((await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers })).statusCode).toBe(200)
    })

    it('is not given by another account’s passkey, nor by two proofs at once', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const other = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const othersAuthenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, other, othersAuthenticator)
      clock.advance(TEN_MINUTES + 1)
      const refused = await reauthenticate(user, { passkey: othersAuthenticator.get(await signInOptions(hub.app, user.headers)) })
      expect(refused.statusCode).toBe(401)
      expect(refused.json()).toEqual({ error: 'The passkey was not accepted' })
      expectRecentSignInRequired(await hub.app.inject({ method: 'POST', url: `${PASSKEYS}/options`, headers: user.headers }))
      const both = await reauthenticate(user, { password: GOOD_PASSWORD, passkey: othersAuthenticator.get(await signInOptions(hub.app, user.headers)) })
      expect(both.statusCode).toBe(400)
      expect(both.json()).toEqual({ error: 'Give one of password, code or passkey' })
    })
  })

  describe('signing in with one', () => {
    it('offers request options for a discoverable credential: no allow list, user verification required', async () => {
      const options = await signInOptions(hub.app, await anonymousHeaders(hub.app))
      expect(options).toMatchObject({ rpId: 'localhost', allowCredentials: [], userVerification: 'required', timeout: FIVE_MINUTES })
      expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    })

    it('answers as login does, with cookies that work, and no second step', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      const passkey = await registered(hub.app, user, authenticator)
      const anonymous = await anonymousHeaders(hub.app)
      const signedIn = await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous)))
      expect(signedIn.statusCode, signedIn.body).toBe(200)
      expect(signedIn.json()).toEqual({ userId: user.userId, idToken: expect.any(String), expiresAt: expect.any(String) })
      const cookies = cookiesSetBy(signedIn)
      expect(cookies['service-auth-token']).toMatchObject({ httpOnly: true })
      const profile = await hub.app.inject({ method: 'GET', url: '/api/account', headers: { cookie: cookieHeader({ 'service-auth-token': cookies['service-auth-token']?.value }) } })
      expect(profile.statusCode).toBe(200)
      expect(profile.json()).toMatchObject({ userId: user.userId, email: user.email })
      // The ID token is login's too: set-cookie takes it, once.
      const setCookie = await hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: user.userId, idToken: signedIn.json<{ idToken: string }>().idToken } })
      expect(setCookie.statusCode, setCookie.body).toBe(200)
      expect(await listPasskeys(hub.app, user)).toEqual([{ ...passkey, lastUsedAt: clock.now().toISOString() }])
      expect(await events(user.userId, 'signin')).toContainEqual({ method: 'passkey' })
    })

    it('counts as both factors: with two-step sign-in on, it asks for no code', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      await turnOnTwoStep(hub.app, user, clock.now())
      expect(await passwordStep(hub.app, user.email)).not.toBe('')
      const anonymous = await anonymousHeaders(hub.app)
      const signedIn = await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous)))
      expect(signedIn.statusCode, signedIn.body).toBe(200)
      expect(signedIn.json()).toEqual({ userId: user.userId, idToken: expect.any(String), expiresAt: expect.any(String) })
      expect(cookiesSetBy(signedIn)['service-auth-token']?.value).toBeTruthy()
    })

    it('uses a sign-in challenge once, within 5 minutes (401 otherwise)', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      const anonymous = await anonymousHeaders(hub.app)
      const options = await signInOptions(hub.app, anonymous)
      expect((await signInWith(hub.app, anonymous, authenticator.get(options))).statusCode).toBe(200)
      const again = await signInWith(hub.app, anonymous, authenticator.get(options))
      expect(again.statusCode).toBe(401)
      expect(again.json()).toEqual({ error: 'This passkey sign-in expired or was already used; begin again' })
      const late = await signInOptions(hub.app, anonymous)
      clock.advance(FIVE_MINUTES)
      expect((await signInWith(hub.app, anonymous, authenticator.get(late))).statusCode).toBe(401)
      // A registration challenge does not sign in.
      const registration = await registrationOptions(hub.app, user)
      expect((await signInWith(hub.app, anonymous, authenticator.get({ challenge: registration.challenge, rpId: 'localhost' }))).statusCode).toBe(401)
    })

    it('refuses a counter that did not move forward, and audits it as a possible copy', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      const anonymous = await anonymousHeaders(hub.app)
      expect((await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous), { signCount: 5 }))).statusCode).toBe(200)
      for (const signCount of [5, 4, 0]) {
        const refused = await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous), { signCount }))
        expect(refused.statusCode, `counter ${signCount}`).toBe(401)
        expect(refused.json()).toEqual({ error: 'The passkey was not accepted' })
      }
      expect((await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous), { signCount: 6 }))).statusCode).toBe(200)
      const reasons = async () => ((await events(user.userId, 'signin.failed')) as { reason: string }[]).map(({ reason }) => reason)
      await expect.poll(reasons).toEqual(['passkey-counter-went-back', 'passkey-counter-went-back', 'passkey-counter-went-back'])
    })

    it('accepts one of two uses of the same counter value made at once', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      const anonymous = await anonymousHeaders(hub.app)
      const [original, copy] = [authenticator.get(await signInOptions(hub.app, anonymous), { signCount: 7 }), authenticator.get(await signInOptions(hub.app, anonymous), { signCount: 7 })]
      const answers = await Promise.all([signInWith(hub.app, anonymous, original), signInWith(hub.app, anonymous, copy)])
      expect(answers.map(({ statusCode }) => statusCode).sort()).toEqual([200, 401])
    })

    it('accepts an authenticator that keeps no counter (always 0)', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      const anonymous = await anonymousHeaders(hub.app)
      for (let use = 1; use <= 2; use++) {
        expect((await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous), { signCount: 0 }))).statusCode).toBe(200)
      }
    })

    it('refuses another site’s credential, another page’s ceremony, no user verification, a foreign user handle or an unknown credential (401)', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      const anonymous = await anonymousHeaders(hub.app)
      for (const overrides of [{ rpId: 'evil.example' }, { origin: 'https://evil.example' }, { userVerified: false }]) {
        const refused = await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous), overrides))
        expect(refused.statusCode, JSON.stringify(overrides)).toBe(401)
        expect(refused.json()).toEqual({ error: 'The passkey was not accepted' })
      }
      const foreignHandle = { ...authenticator.get(await signInOptions(hub.app, anonymous)) }
      foreignHandle.response = { ...foreignHandle.response, userHandle: Buffer.from('someone-else').toString('base64url') }
      expect((await signInWith(hub.app, anonymous, foreignHandle)).statusCode).toBe(401)
      const stranger = softwareAuthenticator(HUB_ORIGIN)
      stranger.create({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: Buffer.from(user.userId).toString('base64url') } })
      expect((await signInWith(hub.app, anonymous, stranger.get(await signInOptions(hub.app, anonymous)))).statusCode).toBe(401)
      // None of these moved the counter or signed in: the real passkey still works.
      expect((await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous)))).statusCode).toBe(200)
    })

    it('refuses a disabled account’s passkey (401), with no session', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      await hub.handle.db.updateTable('users').set({ disabled: 1 }).where('id', '=', user.userId).execute()
      const anonymous = await anonymousHeaders(hub.app)
      const refused = await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous)))
      expect(refused.statusCode).toBe(401)
      expect(refused.json()).toEqual({ error: 'The passkey was not accepted' })
      expect(cookiesSetBy(refused)['service-auth-token']).toBeUndefined()
      // Recorded without holding up the answer (as login's failures are).
      await expect.poll(() => events(user.userId, 'signin.failed')).toContainEqual(expect.objectContaining({ reason: 'account-disabled' }))
    })

    it('counts failures toward the account’s sign-in limit (429 with Retry-After)', async () => {
      const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now())
      const authenticator = softwareAuthenticator(HUB_ORIGIN)
      await registered(hub.app, user, authenticator)
      const anonymous = await anonymousHeaders(hub.app)
      for (let attempt = 1; attempt <= 10; attempt++) {
        expect((await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous), { userVerified: false }))).statusCode).toBe(401)
      }
      const limited = await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous)))
      expect(limited.statusCode).toBe(429)
      expect(limited.headers['retry-after']).toBeDefined()
      clock.advance(15 * 60_000 + 1)
      expect((await signInWith(hub.app, anonymous, authenticator.get(await signInOptions(hub.app, anonymous)))).statusCode).toBe(200)
    })

    it('needs the CSRF header (403) and refuses a body that is not an assertion (400)', async () => {
      expect((await hub.app.inject({ method: 'POST', url: '/api/auth/passkey/options' })).statusCode).toBe(403)
      const anonymous = await anonymousHeaders(hub.app)
      for (const payload of [{}, { response: { id: 'x' } }, { response: 'x' }]) {
        expect((await hub.app.inject({ method: 'POST', url: '/api/auth/passkey', headers: anonymous, payload })).statusCode, JSON.stringify(payload)).toBe(400)
      }
    })
  })
})

describe.each(databasesUnderTest())('passkeys with an external provider on $name', (database) => {
  const idp = useHubWithExternalProvider(database)

  it('serves none of the passkey paths: 404', async () => {
    const headers = sessionHeaders(await idp.signIn())
    for (const [method, url] of [
      ['POST', '/api/auth/passkey/options'],
      ['POST', '/api/auth/passkey'],
      ['POST', `${PASSKEYS}/options`],
      ['POST', PASSKEYS],
      ['GET', PASSKEYS],
      ['PATCH', `${PASSKEYS}/some-id`],
      ['DELETE', `${PASSKEYS}/some-id`]
    ] as const) {
      expect((await idp.app.inject({ method, url, headers, payload: method === 'GET' ? undefined : {} })).statusCode, `${method} ${url}`).toBe(404)
    }
  })
})
