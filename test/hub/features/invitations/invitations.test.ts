import { describe, expect, it } from 'vitest'
import { anonymousHeaders, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { forgetRecentSignIns, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, buildTestHubApp, logIn, pageCookies, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { createAccounts } from '../../../../src/hub/kernel/accounts/accounts.js'
import { createUsersRepository } from '../../../../src/hub/kernel/accounts/repository.js'
import type { App } from '../../../../src/shared/http/server.js'

const MANY_SIGN_UPS = { signupsPerIp: { limit: 10_000, windowMs: 60_000 } }
const REFUSED = 'This invitation cannot be used: it was already used, withdrawn or has expired. Ask for a new one'
const SEVEN_DAYS = 7 * 24 * 60 * 60_000

let groupCount = 0
const uniqueGroup = () => `Family ${process.pid} ${++groupCount}`

describe.each(databasesUnderTest())('invitations (HUB_SIGNUP=invite) on $name', (database) => {
  const smtp = useSmtpServer()
  const clock = testClock(new Date())
  const hub = useHubApp(database, () => ({ config: { signup: 'invite', smtpUrl: smtpUrlFor(smtp.server.port) }, now: clock.now, mailSenderIntervalMs: 50, rateLimits: MANY_SIGN_UPS }))

  /** Sign-up needs an invitation here: accounts come from the repository, as users:create makes them. */
  const person = async (): Promise<SignedIn> => {
    const email = uniqueEmail()
    await createAccounts(createUsersRepository(hub.handle.db)).create({ email, password: GOOD_PASSWORD }, clock.now())
    return logIn(hub.app, email)
  }
  const administrator = async () => {
    const admin = await person()
    await hub.handle.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.userId).execute()
    return admin
  }
  const call = (user: SignedIn, method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    hub.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) })
  const invite = async (admin: SignedIn, payload: object) => {
    const response = await call(admin, 'POST', '/api/admin/invitations', payload)
    expect(response.statusCode, response.body).toBe(201)
    return response.json<{ id: string; email: string; expiresAt: string }>()
  }
  /** The token of the invitation mail's link, and the address the link carries beside it. */
  const mailedLink = async (email: string, count = 1) => {
    const mail = (await mailsTo(smtp.server, email, count)).at(-1)
    const match = /\/invite#token=([A-Za-z0-9_-]+)&email=([^\s]+)/.exec(mail?.text ?? '')
    if (!match?.[1] || !match[2]) throw new Error('no /invite link in the mail')
    return { token: match[1], email: decodeURIComponent(match[2]), mail }
  }
  const signUp = (payload: object) => hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload })

  it('mails a link to /invite whose token makes the account of that address, proven, in the invitation’s groups', async () => {
    const admin = await administrator()
    const group = await call(admin, 'POST', '/api/admin/groups', { name: uniqueGroup() })
    const email = uniqueEmail('Invited')
    const sent = await invite(admin, { email, groups: [group.json<{ name: string }>().name.toUpperCase()], language: 'es' })
    expect(sent).toEqual({ id: expect.any(String), email: email.toLowerCase(), expiresAt: new Date(clock.now().getTime() + SEVEN_DAYS).toISOString() })

    const link = await mailedLink(email.toLowerCase())
    expect(link.mail?.subject).toBe('Te invitan a crear una cuenta de Hearth')
    expect(link.mail?.text).toContain('http://localhost:3001/invite#token=')
    expect(link.email).toBe(email.toLowerCase())
    // Only its hash is kept.
    const stored = await hub.handle.db.selectFrom('invitations').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow()
    expect(JSON.stringify(stored)).not.toContain(link.token)

    const made = await signUp({ email: link.email, password: GOOD_PASSWORD, invitation: link.token })
    expect(made.statusCode, made.body).toBe(200)
    const { userId } = made.json<{ userId: string }>()
    const user = await hub.handle.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
    expect(user.emailVerified).toBe(1)
    const groups = await call(admin, 'GET', `/api/admin/groups/${group.json<{ id: string }>().id}`)
    expect(groups.json<{ accounts: { userId: string }[] }>().accounts.map((account) => account.userId)).toEqual([userId])
    // The new account signs in with the password it chose, and its trail says how it came.
    const signedIn = await logIn(hub.app, email)
    const trail = await hub.handle.db.selectFrom('auditEvents').select(['type', 'detail']).where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute()
    expect(trail.map((event) => event.type)).toEqual(['signup', 'invitation.used', 'signin'])
    expect(JSON.parse(trail[1]?.detail ?? '{}')).toEqual({ invitationId: sent.id, by: admin.userId })
    const activity = await hub.app.inject({ method: 'GET', url: '/activity', headers: pageCookies(signedIn, { lang: 'en' }) })
    expect(activity.body).toContain('Accepted an administrator')
    // The administrator's trail has the sending.
    const sentEvents = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', admin.userId).where('type', '=', 'invitation.sent').execute()
    expect(sentEvents.map((event) => JSON.parse(event.detail))).toEqual([{ invitationId: sent.id, email: email.toLowerCase(), groups: [group.json<{ name: string }>().name] }])
    // No verification mail: the link proved the address.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await mailsTo(smtp.server, email.toLowerCase(), 1)).toHaveLength(1)
  })

  it("writes the mail in the administrator's own language when none is named", async () => {
    const admin = await administrator()
    await hub.handle.db.updateTable('users').set({ locale: 'es' }).where('id', '=', admin.userId).execute()
    const email = uniqueEmail('spanish')
    await invite(admin, { email })
    expect((await mailedLink(email)).mail?.subject).toBe('Te invitan a crear una cuenta de Hearth')
    const english = uniqueEmail('english')
    await invite(admin, { email: english, language: 'en' })
    const { mail } = await mailedLink(english)
    expect(mail?.subject).toBe('You are invited to make a Hearth account')
    expect(mail?.text).toContain('The link works once, within 7 days.')
  })

  it('refuses an invitation used twice, expired or withdrawn with one message: 403', async () => {
    const admin = await administrator()
    const used = uniqueEmail('used')
    await invite(admin, { email: used })
    const usedLink = await mailedLink(used)
    expect((await signUp({ email: used, password: GOOD_PASSWORD, invitation: usedLink.token })).statusCode).toBe(200)
    const twice = await signUp({ email: used, password: GOOD_PASSWORD, invitation: usedLink.token })
    expect(twice.statusCode).toBe(403)
    expect(twice.json()).toEqual({ error: REFUSED })

    const withdrawn = uniqueEmail('withdrawn')
    const sent = await invite(admin, { email: withdrawn })
    const withdrawnLink = await mailedLink(withdrawn)
    expect((await call(admin, 'DELETE', `/api/admin/invitations/${sent.id}`)).statusCode).toBe(204)
    const afterWithdrawal = await signUp({ email: withdrawn, password: GOOD_PASSWORD, invitation: withdrawnLink.token })
    expect(afterWithdrawal.statusCode).toBe(403)
    expect(afterWithdrawal.json()).toEqual({ error: REFUSED })
    const withdrawnEvents = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', admin.userId).where('type', '=', 'invitation.withdrawn').execute()
    expect(withdrawnEvents.map((event) => JSON.parse(event.detail))).toEqual([{ invitationId: sent.id, email: withdrawn }])

    const expired = uniqueEmail('expired')
    await invite(admin, { email: expired })
    const expiredLink = await mailedLink(expired)
    clock.advance(SEVEN_DAYS)
    const late = await signUp({ email: expired, password: GOOD_PASSWORD, invitation: expiredLink.token })
    expect(late.statusCode).toBe(403)
    expect(late.json()).toEqual({ error: REFUSED })

    const unknown = await signUp({ email: expired, password: GOOD_PASSWORD, invitation: 'x'.repeat(43) })
    expect(unknown.json()).toEqual({ error: REFUSED })
  })

  it('is for its address only: 403 for another, and a refused password spends nothing', async () => {
    const admin = await administrator()
    const email = uniqueEmail('own')
    await invite(admin, { email })
    const { token } = await mailedLink(email)
    const other = await signUp({ email: uniqueEmail('other'), password: GOOD_PASSWORD, invitation: token })
    expect(other.statusCode).toBe(403)
    expect(other.json()).toEqual({ error: 'This invitation is for another address' })
    const weak = await signUp({ email, password: 'password1', invitation: token })
    expect(weak.statusCode).toBe(400)
    expect((await signUp({ email, password: GOOD_PASSWORD, invitation: token })).statusCode).toBe(200)
  })

  it('offers no sign-up form: the sign-up page says accounts come by invitation, the login page does not link to it', async () => {
    const signupPage = await hub.app.inject({ method: 'GET', url: '/signup', headers: { cookie: 'lang=es' } })
    expect(signupPage.body).toContain('Este servicio solo admite cuentas nuevas por invitación')
    expect(signupPage.body).not.toContain('data-form="signup"')
    const loginPage = await hub.app.inject({ method: 'GET', url: '/login' })
    expect(loginPage.body).not.toContain('href="/signup')
  })

  it('needs an invitation to sign up: 403 {error} without one', async () => {
    const response = await signUp({ email: uniqueEmail(), password: GOOD_PASSWORD })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: 'This hub takes new accounts by invitation only; ask its administrator for one' })
  })

  it('lists the pending invitations, newest first, and withdraws one (204; 404 once it is not pending)', async () => {
    const admin = await administrator()
    const group = (await call(admin, 'POST', '/api/admin/groups', { name: uniqueGroup() })).json<{ name: string }>()
    const first = await invite(admin, { email: uniqueEmail('first') })
    clock.advance(1000)
    const second = await invite(admin, { email: uniqueEmail('second'), groups: [group.name] })
    const list = await call(admin, 'GET', '/api/admin/invitations')
    expect(list.statusCode).toBe(200)
    const pending = list.json<{ invitations: { id: string }[] }>().invitations
    const ours = pending.filter((invitation) => [first.id, second.id].includes(invitation.id))
    expect(ours).toEqual([
      { id: second.id, email: second.email, groups: [group.name], invitedBy: admin.email, createdAt: expect.any(String), expiresAt: second.expiresAt },
      { id: first.id, email: first.email, groups: [], invitedBy: admin.email, createdAt: expect.any(String), expiresAt: first.expiresAt }
    ])
    expect((await call(admin, 'DELETE', `/api/admin/invitations/${first.id}`)).statusCode).toBe(204)
    const again = await call(admin, 'DELETE', `/api/admin/invitations/${first.id}`)
    expect(again.statusCode).toBe(404)
    expect(again.json()).toEqual({ error: 'No pending invitation has this id' })
    const after = (await call(admin, 'GET', '/api/admin/invitations')).json<{ invitations: { id: string }[] }>().invitations
    expect(after.map((invitation) => invitation.id)).not.toContain(first.id)
  })

  it('withdraws an earlier pending invitation of an address invited again: only the newest link works', async () => {
    const admin = await administrator()
    const email = uniqueEmail('again')
    await invite(admin, { email })
    const older = await mailedLink(email)
    await invite(admin, { email })
    const newer = await mailedLink(email, 2)
    expect((await signUp({ email, password: GOOD_PASSWORD, invitation: older.token })).json()).toEqual({ error: REFUSED })
    expect((await signUp({ email, password: GOOD_PASSWORD, invitation: newer.token })).statusCode).toBe(200)
  })

  it('refuses an address that has an account (409) and an unknown group (400)', async () => {
    const admin = await administrator()
    const taken = await call(admin, 'POST', '/api/admin/invitations', { email: admin.email.toUpperCase() })
    expect(taken.statusCode).toBe(409)
    expect(taken.json()).toEqual({ error: 'An account with this email already exists' })
    const unknown = await call(admin, 'POST', '/api/admin/invitations', { email: uniqueEmail(), groups: ['no such group'] })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json()).toEqual({ error: 'No group is named no such group' })
    const invalid = await call(admin, 'POST', '/api/admin/invitations', { email: 'not-an-address' })
    expect(invalid.json()).toEqual({ error: 'Email must be a valid email address' })
  })

  it('refuses an invitation whose address got an account meanwhile: 409, and the invitation is not spent', async () => {
    const admin = await administrator()
    const email = uniqueEmail('meanwhile')
    const sent = await invite(admin, { email })
    const { token } = await mailedLink(email)
    await createAccounts(createUsersRepository(hub.handle.db)).create({ email, password: GOOD_PASSWORD }, clock.now())
    const response = await signUp({ email, password: GOOD_PASSWORD, invitation: token })
    expect(response.statusCode).toBe(409)
    const row = await hub.handle.db.selectFrom('invitations').select('usedAt').where('id', '=', sent.id).executeTakeFirstOrThrow()
    expect(row.usedAt).toBeNull()
  })

  describe('who may', () => {
    const routes = [
      ['GET', '/api/admin/invitations', false],
      ['POST', '/api/admin/invitations', true],
      ['DELETE', '/api/admin/invitations/I', true]
    ] as const
    const bodyOf = (method: string) => (method === 'POST' ? { email: uniqueEmail('x') } : undefined)

    it.each(routes)('%s %s: 401 signed out', async (method, url) => {
      const response = await hub.app.inject({ method, url, headers: await anonymousHeaders(hub.app), ...(bodyOf(method) ? { payload: bodyOf(method) } : {}) })
      expect(response.statusCode).toBe(401)
    })

    it.each(routes)('%s %s: 403 {error} for a member', async (method, url) => {
      const member = await person()
      const response = await call(member, method, url, bodyOf(method))
      expect(response.statusCode).toBe(403)
      expect(response.json()).toEqual({ error: expect.any(String) })
    })

    it.each(routes.filter(([, , changes]) => changes))('%s %s: 401 for an administrator without a recent sign-in', async (method, url) => {
      const admin = await administrator()
      const sent = await invite(admin, { email: uniqueEmail('y') })
      await forgetRecentSignIns(hub.handle.db)
      const response = await call(admin, method, url.replace('/I', `/${sent.id}`), bodyOf(method))
      expect(response.statusCode).toBe(401)
      expect(response.headers['www-authenticate']).toMatch(/insufficient_user_authentication/)
    })
  })
})

describe.each(databasesUnderTest())('HUB_SIGNUP on $name', (database) => {
  const open = useHubApp(database, { rateLimits: MANY_SIGN_UPS })

  const signUp = (app: App, payload: object) => app.inject({ method: 'POST', url: '/api/auth/signup', payload })

  it('open (the default): anyone signs up, and administrators may still invite', async () => {
    expect((await signUp(open.app, { email: uniqueEmail(), password: GOOD_PASSWORD })).statusCode).toBe(200)
    expect((await open.app.inject({ method: 'GET', url: '/signup' })).body).toContain('data-form="signup"')
    expect((await open.app.inject({ method: 'GET', url: '/login' })).body).toContain('href="/signup"')
    const admin = await signUpAdministrator(open.app, open.handle.db)
    const email = uniqueEmail('open-invited')
    const response = await open.app.inject({ method: 'POST', url: '/api/admin/invitations', headers: admin.headers, payload: { email } })
    expect(response.statusCode).toBe(201)
    const stored = await open.handle.db.selectFrom('invitations').select('id').where('email', '=', email).execute()
    expect(stored).toHaveLength(1)
  })

  it('closed: nobody signs up, invited or not (403), and no invitation is sent (409)', async () => {
    const admin = await signUpAdministrator(open.app, open.handle.db)
    const closed = await buildTestHubApp(open.handle, { config: { signup: 'closed' } })
    try {
      const refused = await signUp(closed, { email: uniqueEmail(), password: GOOD_PASSWORD, invitation: 'x'.repeat(43) })
      expect(refused.statusCode).toBe(403)
      expect(refused.json()).toEqual({ error: 'Sign-up is closed on this hub' })
      const invitation = await closed.inject({ method: 'POST', url: '/api/admin/invitations', headers: admin.headers, payload: { email: uniqueEmail() } })
      expect(invitation.statusCode).toBe(409)
      expect(invitation.json()).toEqual({ error: 'HUB_SIGNUP is closed: nobody signs up, invited or not. Set HUB_SIGNUP=invite to invite people' })
      const signupPage = await closed.inject({ method: 'GET', url: '/signup', headers: { cookie: 'lang=en' } })
      expect(signupPage.body).toContain('This hub does not take new accounts.')
      expect(signupPage.body).not.toContain('data-form="signup"')
    } finally {
      await closed.close()
    }
  })
})

