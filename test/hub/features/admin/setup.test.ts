import { describe, expect, it } from 'vitest'
import { SETUP_LINK_REFUSED, issueSetupToken } from '../../../../src/hub/features/admin/setup.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, logIn, pageCookies, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import type { App } from '../../../../src/shared/http/server.js'

/** A browser without a session still holds a CSRF cookie, which the page's script echoes in the header. */
const SIGNED_OUT = { cookie: 'service-csrf-token=setup-page', 'x-csrf-token': 'setup-page' }

const useSetup = (app: App, payload: Record<string, unknown>, headers: Record<string, string> = SIGNED_OUT, remoteAddress = '10.9.0.1') =>
  app.inject({ method: 'POST', url: '/api/setup', headers, payload, remoteAddress })

describe.each(databasesUnderTest())('the first administrator on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: { failedLoginsPerIp: { limit: 3, windowMs: 60_000 } } })
  const roleOf = async (email: string) => (await hub.handle.db.selectFrom('users').select(['role', 'emailVerified']).where('email', '=', email).executeTakeFirst()) ?? null

  it('refuses an unknown token with the one message, and an older start’s token once a newer start replaced it', async () => {
    const older = await issueSetupToken(hub.handle.db, new Date())
    const newer = await issueSetupToken(hub.handle.db, new Date())
    expect(older).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(newer).not.toBe(older)
    for (const token of ['not-a-token', older]) {
      const response = await useSetup(hub.app, { token, email: uniqueEmail('setup'), password: GOOD_PASSWORD })
      expect(response.statusCode).toBe(403)
      expect(response.json()).toEqual({ error: SETUP_LINK_REFUSED })
    }
    // Only the hash is kept.
    const stored = await hub.handle.db.selectFrom('setupTokens').select('tokenHash').execute()
    expect(stored).toHaveLength(1)
    expect(stored[0]?.tokenHash).not.toContain(newer)
  })

  it('keeps the token when the sign-up rules refuse the address or the password, and asks signed-out callers for both', async () => {
    const token = await issueSetupToken(hub.handle.db, new Date())
    const short = await useSetup(hub.app, { token, email: uniqueEmail('setup'), password: 'short' })
    expect(short.statusCode).toBe(400)
    expect(short.json()).toEqual({ error: expect.stringMatching(/password/i) })
    const missing = await useSetup(hub.app, { token })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toEqual({ error: expect.any(String) })
    const taken = await signUpAndLogIn(hub.app)
    const conflict = await useSetup(hub.app, { token, email: taken.email, password: GOOD_PASSWORD })
    expect(conflict.statusCode).toBe(409)
    expect(await hub.handle.db.selectFrom('setupTokens').select('tokenHash').execute()).toHaveLength(1)
  })

  it('creates the first administrator, its address verified, once; the link is void after, and no start issues another', async () => {
    const token = await issueSetupToken(hub.handle.db, new Date())
    const email = uniqueEmail('first-admin')
    const created = await useSetup(hub.app, { token, email, password: GOOD_PASSWORD })
    expect(created.statusCode, created.body).toBe(201)
    const { userId } = created.json<{ userId: string; created: boolean }>()
    expect(created.json()).toEqual({ userId: expect.any(String), created: true })
    expect(await roleOf(email)).toEqual({ role: 'admin', emailVerified: 1 })
    const audited = await hub.handle.db.selectFrom('auditEvents').select(['type', 'detail']).where('userId', '=', userId).execute()
    expect(audited).toEqual([{ type: 'admin.setup', detail: JSON.stringify({ created: true }) }])

    const again = await useSetup(hub.app, { token, email: uniqueEmail('second'), password: GOOD_PASSWORD })
    expect(again.statusCode).toBe(403)
    expect(again.json()).toEqual({ error: SETUP_LINK_REFUSED })

    // The administrator signs in and sees the console; the GET /api/account role says so.
    const admin = await logIn(hub.app, email)
    const account = await hub.app.inject({ method: 'GET', url: '/api/account', headers: admin.headers })
    expect(account.json()).toMatchObject({ role: 'admin', emailVerified: true })
    expect((await hub.app.inject({ method: 'GET', url: '/admin', headers: pageCookies(admin) })).statusCode).toBe(200)

    // The page says the link is spent, with no form left to fill.
    const spent = await hub.app.inject({ method: 'GET', url: '/setup' })
    expect(spent.body).toContain('This hub has an administrator already')
    expect(spent.body).not.toContain('data-form="setup"')

    expect(await issueSetupToken(hub.handle.db, new Date())).toBeNull()
    expect(await hub.handle.db.selectFrom('setupTokens').select('tokenHash').execute()).toEqual([])
  })

  it('voids a token issued before an administrator existed even though it was never used', async () => {
    // An administrator exists now (the test above); a token that was somehow left is refused all the same.
    await hub.handle.db.deleteFrom('setupTokens').execute()
    const { hashMailToken } = await import('../../../../src/hub/kernel/mail/mail-tokens.js')
    await hub.handle.db.insertInto('setupTokens').values({ tokenHash: hashMailToken('left-over-token'), createdAt: new Date().toISOString() }).execute()
    const response = await useSetup(hub.app, { token: 'left-over-token', email: uniqueEmail('late'), password: GOOD_PASSWORD }, SIGNED_OUT, '10.9.0.2')
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: SETUP_LINK_REFUSED })
    expect(await hub.handle.db.selectFrom('setupTokens').select('tokenHash').execute()).toEqual([])
  })

  it('caps guesses per IP like logins: 429 with Retry-After once over the limit', async () => {
    const statuses: number[] = []
    let last
    for (let attempt = 0; attempt < 5; attempt += 1) {
      last = await useSetup(hub.app, { token: `guess-${String(attempt)}`, email: uniqueEmail('guess'), password: GOOD_PASSWORD }, SIGNED_OUT, '10.9.9.9')
      statuses.push(last.statusCode)
    }
    expect(statuses).toEqual([403, 403, 403, 429, 429])
    expect(last?.headers['retry-after']).toBeDefined()
    expect(last?.json()).toEqual({ error: expect.any(String) })
  })
})

describe.each(databasesUnderTest())('the set-up link for a signed-in account on $name', (database) => {
  const hub = useHubApp(database)

  it('serves the set-up page signed out and signed in, in English and Spanish, the token left to the script', async () => {
    const signedOut = await hub.app.inject({ method: 'GET', url: '/setup', headers: { 'accept-language': 'es' } })
    expect(signedOut.statusCode).toBe(200)
    expect(signedOut.body).toContain('Configurar este hub')
    expect(signedOut.body).toContain('data-link-token="setup"')
    expect(signedOut.body).toContain('name="password"')
    const person = await signUpAndLogIn(hub.app)
    const signedIn = await hub.app.inject({ method: 'GET', url: '/setup', headers: { ...pageCookies(person), 'accept-language': 'en' } })
    expect(signedIn.body).toContain('Make me the administrator')
    expect(signedIn.body).toContain(person.email)
    expect(signedIn.body).not.toContain('name="password"')
  })

  it('makes the signed-in account the administrator (200), refuses credentials beside the session, and says so in its activity', async () => {
    const person = await signUpAndLogIn(hub.app)
    const token = await issueSetupToken(hub.handle.db, new Date())
    const both = await useSetup(hub.app, { token, email: uniqueEmail('other'), password: GOOD_PASSWORD }, person.headers)
    expect(both.statusCode).toBe(400)
    const promoted = await useSetup(hub.app, { token }, person.headers)
    expect(promoted.statusCode, promoted.body).toBe(200)
    expect(promoted.json()).toEqual({ userId: person.userId, created: false })
    const account = await hub.app.inject({ method: 'GET', url: '/api/account', headers: person.headers })
    expect(account.json()).toMatchObject({ role: 'admin' })
    const activity = await hub.app.inject({ method: 'GET', url: '/api/account/activity', headers: person.headers })
    expect(activity.json<{ events: { type: string }[] }>().events[0]).toMatchObject({ type: 'admin.setup', detail: { created: false } })
    const page = await hub.app.inject({ method: 'GET', url: '/activity', headers: pageCookies(person) })
    expect(page.body).toContain('Became an administrator of this hub with its set-up link')
  })
})
