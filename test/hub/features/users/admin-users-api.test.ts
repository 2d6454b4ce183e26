import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { LAST_ADMINISTRATOR } from '../../../../src/hub/kernel/accounts/roles.js'
import { ADMINISTRATORS_ONLY } from '../../../../src/hub/kernel/pipeline/role.js'
import { RECENT_SIGN_IN_CHALLENGE, RECENT_SIGN_IN_REQUIRED } from '../../../../src/hub/kernel/sessions/recent-sign-in.js'
import { USER_NOT_FOUND } from '../../../../src/hub/features/users/service.js'
import { SECURITY_EVENT_TYPES } from '../../../../src/shared/security-events/security-event-token.js'
import type { App } from '../../../../src/shared/http/server.js'
import { forgetRecentSignIns, signUpAdministrator } from '../../../helpers/administrators.js'
import { anonymousHeaders, mailsTo, signUpConfirmedAndLogIn, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, logIn, pageCookies, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { TOTP_STEP_MS, turnOnTwoStep } from '../../../helpers/two-step.js'

interface Listed {
  userId: string
  email: string
  emailVerified: boolean
  displayName: string | null
  role: string
  disabled: boolean
  createdAt: string
  lastSignInAt: string | null
  twoStep: boolean
  passkeys: number
  groups: string[]
}
interface ListPage {
  users: Listed[]
  hasMore: boolean
  nextCursor: string | null
}

const USERS = '/api/admin/users'
const error = (message: string) => ({ error: message })

describe.each(databasesUnderTest())('the administrator’s users API on $name', (database) => {
  const smtp = useSmtpServer()
  // The wall clock's time, which the audit trail stamps, so the activity page's retention shows the events; moved for TOTP steps only.
  const clock = testClock(new Date())
  const hub = useHubApp(database, () => ({
    now: clock.now,
    config: { smtpUrl: smtpUrlFor(smtp.server.port) },
    mailSenderIntervalMs: 50,
    rateLimits: { signupsPerIp: { limit: 10_000, windowMs: 60_000 } }
  }))
  const request = (user: SignedIn | undefined, method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, payload?: object) =>
    hub.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) })
  const list = async (admin: SignedIn, query: string) => {
    const response = await request(admin, 'GET', `${USERS}?${query}`)
    expect(response.statusCode, response.body).toBe(200)
    return response.json<ListPage>()
  }
  const accountStatus = async (app: App, user: SignedIn) => (await app.inject({ method: 'GET', url: '/api/account', headers: { cookie: user.headers.cookie ?? '' } })).statusCode
  const eventsOf = async (userId: string, type: string) =>
    (await hub.handle.db.selectFrom('auditEvents').select(['detail', 'ip']).where('userId', '=', userId).where('type', '=', type).execute()).map(({ detail, ip }) => ({
      detail: JSON.parse(detail) as Record<string, unknown>,
      ip
    }))
  /** The person's activity page in English, as they read it. */
  const activityOf = async (user: SignedIn) => (await hub.app.inject({ method: 'GET', url: '/activity', headers: pageCookies(user, { lang: 'en' }) })).body
  /** Leaves `admin` the hub's one enabled administrator. */
  const onlyAdministrator = async (admin: SignedIn) => {
    await hub.handle.db.updateTable('users').set({ role: 'member' }).where('id', '<>', admin.userId).execute()
  }

  describe('who may call it', () => {
    const someone = randomUUID()
    const routes = [
      { method: 'GET', url: USERS, change: false },
      { method: 'PATCH', url: `${USERS}/${someone}`, change: true, payload: { displayName: 'Ana' } },
      { method: 'POST', url: `${USERS}/${someone}/sign-out`, change: true },
      { method: 'DELETE', url: `${USERS}/${someone}/two-step`, change: true },
      { method: 'DELETE', url: `${USERS}/${someone}`, change: true }
    ] as const

    it.each(routes)('$method $url: 401 for nobody, 403 for a member', async (route) => {
      const payload = 'payload' in route ? route.payload : undefined
      // A browser with no session, holding the CSRF token the hub's pages give it.
      const nobody = await hub.app.inject({ method: route.method, url: route.url, headers: await anonymousHeaders(hub.app), ...(payload ? { payload } : {}) })
      expect(nobody.statusCode).toBe(401)
      const member = await signUpAndLogIn(hub.app)
      const refused = await request(member, route.method, route.url, payload)
      expect(refused.statusCode).toBe(403)
      expect(refused.json()).toEqual(error(ADMINISTRATORS_ONLY))
    })

    it.each(routes.filter((route) => route.change))('$method $url: 401 for an administrator without a recent sign-in', async (route) => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      await forgetRecentSignIns(hub.handle.db)
      const response = await request(admin, route.method, route.url, 'payload' in route ? route.payload : undefined)
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual(error(RECENT_SIGN_IN_REQUIRED))
      expect(response.headers['www-authenticate']).toBe(RECENT_SIGN_IN_CHALLENGE)
    })

    it('lets an administrator without a recent sign-in read the list', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      await forgetRecentSignIns(hub.handle.db)
      expect((await request(admin, 'GET', USERS)).statusCode).toBe(200)
    })

    it('answers 404 for an account that does not exist', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      for (const [method, url, payload] of [
        ['PATCH', `${USERS}/${someone}`, { role: 'admin' }],
        ['POST', `${USERS}/${someone}/sign-out`],
        ['DELETE', `${USERS}/${someone}/two-step`],
        ['DELETE', `${USERS}/${someone}`]
      ] as const) {
        const response = await request(admin, method, url, payload)
        expect(response.statusCode, url).toBe(404)
        expect(response.json()).toEqual(error(USER_NOT_FOUND))
      }
    })
  })

  describe('the list', () => {
    it('shows each account with its role, state, sign-ins, groups and ways of signing in', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('listed'))
      await turnOnTwoStep(hub.app, person, clock.now())
      clock.advance(TOTP_STEP_MS)
      const { db } = hub.handle
      const now = clock.now().toISOString()
      await db
        .insertInto('passkeys')
        .values([1, 2].map((n) => ({ id: randomUUID(), userId: person.userId, credentialId: `credential-${person.userId}-${n}`, publicKey: 'key', signCount: 0, transports: '[]', aaguid: '', name: `Key ${n}`, createdAt: now, lastUsedAt: null })))
        .execute()
      const groupIds = [randomUUID(), randomUUID()]
      await db
        .insertInto('groups')
        .values([
          { id: groupIds[0] ?? '', name: `Parents ${person.userId}`, nameKey: `parents ${person.userId}`, description: '', createdAt: now, updatedAt: now },
          { id: groupIds[1] ?? '', name: `Family ${person.userId}`, nameKey: `family ${person.userId}`, description: '', createdAt: now, updatedAt: now }
        ])
        .execute()
      await db.insertInto('groupMembers').values(groupIds.map((groupId) => ({ groupId, userId: person.userId, addedAt: now }))).execute()
      const signIn = await db.selectFrom('auditEvents').select('createdAt').where('userId', '=', person.userId).where('type', '=', 'signin').orderBy('createdAt', 'desc').executeTakeFirstOrThrow()

      const { users } = await list(admin, `query=${encodeURIComponent(person.email)}`)
      expect(users).toEqual([
        {
          userId: person.userId,
          email: person.email,
          emailVerified: true,
          displayName: null,
          role: 'member',
          disabled: false,
          createdAt: expect.any(String) as string,
          lastSignInAt: signIn.createdAt,
          twoStep: true,
          passkeys: 2,
          groups: [`Family ${person.userId}`, `Parents ${person.userId}`]
        }
      ])
      const [self] = (await list(admin, `query=${encodeURIComponent(admin.email)}`)).users
      expect(self).toMatchObject({ role: 'admin', twoStep: false, passkeys: 0, groups: [], emailVerified: false })
    })

    it('matches the address or the name anywhere, whatever the case, its wildcards taken as themselves', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const tag = `q${Date.now().toString(36)}`
      const ana = await signUpAndLogIn(hub.app, `ana.${tag}@example.com`)
      const bea = await signUpAndLogIn(hub.app, `bea.${tag}@example.com`)
      const percent = await signUpAndLogIn(hub.app, `per%cent.${tag}@example.com`)
      await hub.handle.db.updateTable('users').set({ displayName: `Beatriz ${tag.toUpperCase()} Núñez` }).where('id', '=', bea.userId).execute()
      const emails = async (query: string) => (await list(admin, `query=${encodeURIComponent(query)}`)).users.map(({ email }) => email).sort()

      expect(await emails(tag.toUpperCase())).toEqual([ana.email, bea.email, percent.email].sort())
      expect(await emails(`ANA.${tag}`)).toEqual([ana.email])
      expect(await emails(`beatriz ${tag}`)).toEqual([bea.email])
      expect(await emails(`per%cent.${tag}`)).toEqual([percent.email])
      // `%` and `_` are no wildcards: "a%" is not "anything starting with a".
      expect(await emails(`a%.${tag}`)).toEqual([])
      expect(await emails(`_na.${tag}`)).toEqual([])
      expect(await emails(`nobody-${tag}`)).toEqual([])
    })

    it('pages through the accounts, newest first, with no account twice or left out', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const tag = `p${Date.now().toString(36)}`
      const made: string[] = []
      for (let n = 0; n < 5; n++) {
        clock.advance(1000)
        made.push((await signUpAndLogIn(hub.app, `${tag}-${n}@example.com`)).email)
      }
      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page: ListPage = await list(admin, `query=${tag}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        seen.push(...page.users.map(({ email }) => email))
        expect(page.hasMore).toBe(page.nextCursor !== null)
        cursor = page.nextCursor
        pages++
      } while (cursor !== null)
      expect(pages).toBe(3)
      expect(seen).toEqual([...made].reverse())

      const garbled = await request(admin, 'GET', `${USERS}?cursor=nonsense`)
      expect(garbled.statusCode).toBe(400)
      expect(garbled.json()).toEqual(error('Cursor is invalid'))
      expect((await request(admin, 'GET', `${USERS}?limit=101`)).statusCode).toBe(400)
    })
  })

  describe('changes', () => {
    it('changes the role and the name, answering the account, each on the person’s activity naming the administrator', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const changed = await request(admin, 'PATCH', `${USERS}/${person.userId}`, { role: 'admin', displayName: '  Ana María  ' })
      expect(changed.statusCode, changed.body).toBe(200)
      expect(changed.json<Listed>()).toMatchObject({ userId: person.userId, email: person.email, role: 'admin', displayName: 'Ana María', disabled: false })
      expect(await eventsOf(person.userId, 'account.promoted')).toEqual([{ detail: { by: admin.userId }, ip: null }])
      expect(await eventsOf(person.userId, 'account.name-changed')).toEqual([{ detail: { by: admin.userId }, ip: null }])
      // The person now reaches the admin API.
      expect((await request(person, 'GET', USERS)).statusCode).toBe(200)

      const back = await request(admin, 'PATCH', `${USERS}/${person.userId}`, { role: 'member' })
      expect(back.json<Listed>().role).toBe('member')
      expect((await request(person, 'GET', USERS)).statusCode).toBe(403)
      // The same value again changes nothing and records nothing.
      await request(admin, 'PATCH', `${USERS}/${person.userId}`, { role: 'member', displayName: 'Ana María' })
      expect(await eventsOf(person.userId, 'account.demoted')).toHaveLength(1)
      expect(await eventsOf(person.userId, 'account.name-changed')).toHaveLength(1)

      const activity = await activityOf(person)
      expect(activity).toContain('An administrator made you an administrator of this hub')
      expect(activity).toContain('An administrator made you a member: you no longer administer this hub')
      expect(activity).toContain('An administrator changed your display name')
    })

    it('refuses a name the profile would refuse, and anything but role, disabled and displayName', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const blank = await request(admin, 'PATCH', `${USERS}/${person.userId}`, { displayName: '   ', role: 'admin' })
      expect(blank.statusCode).toBe(400)
      expect(blank.json()).toEqual(error('Display name must not be empty'))
      // Nothing of a refused change is made.
      expect((await hub.handle.db.selectFrom('users').select('role').where('id', '=', person.userId).executeTakeFirstOrThrow()).role).toBe('member')
      expect((await request(admin, 'PATCH', `${USERS}/${person.userId}`, { email: 'x@example.com' })).statusCode).toBe(400)
      expect((await request(admin, 'PATCH', `${USERS}/${person.userId}`, { role: 'owner' })).statusCode).toBe(400)
    })

    it('disables an account: its sessions end, it cannot sign in, and enabling lets it in again', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const laptop = await logIn(hub.app, person.email)
      const disabled = await request(admin, 'PATCH', `${USERS}/${person.userId}`, { disabled: true })
      expect(disabled.statusCode, disabled.body).toBe(200)
      expect(disabled.json<Listed>().disabled).toBe(true)
      expect(await accountStatus(hub.app, person)).toBe(401)
      expect(await accountStatus(hub.app, laptop)).toBe(401)
      const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: person.email, password: GOOD_PASSWORD } })
      expect(login.statusCode).toBe(401)
      expect(await eventsOf(person.userId, 'account.disabled')).toEqual([{ detail: { endedSessions: 2, by: admin.userId }, ip: null }])

      const enabled = await request(admin, 'PATCH', `${USERS}/${person.userId}`, { disabled: false })
      expect(enabled.json<Listed>().disabled).toBe(false)
      const again = await logIn(hub.app, person.email)
      expect(await accountStatus(hub.app, again)).toBe(200)
      const activity = await activityOf(again)
      expect(activity).toContain('An administrator disabled your account')
      expect(activity).toContain('An administrator enabled your account again')
    })

    it('signs a person out of every device, as “sign out everywhere” does', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const phone = await logIn(hub.app, person.email)
      const response = await request(admin, 'POST', `${USERS}/${person.userId}/sign-out`)
      expect(response.statusCode, response.body).toBe(204)
      expect(await accountStatus(hub.app, person)).toBe(401)
      expect(await accountStatus(hub.app, phone)).toBe(401)
      expect(await hub.handle.db.selectFrom('sessions').select('id').where('userId', '=', person.userId).execute()).toEqual([])
      expect(await eventsOf(person.userId, 'account.signed-out-everywhere')).toEqual([{ detail: { endedSessions: 2, by: admin.userId }, ip: null }])
      // The administrator's own session is untouched.
      expect(await accountStatus(hub.app, admin)).toBe(200)
      expect(await activityOf(await logIn(hub.app, person.email))).toContain('An administrator signed you out of every device')
    })

    it('turns off two-step sign-in for a person who lost their phone, and mails them', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('lost-phone'))
      await turnOnTwoStep(hub.app, person, clock.now())
      clock.advance(TOTP_STEP_MS)
      const response = await request(admin, 'DELETE', `${USERS}/${person.userId}/two-step`)
      expect(response.statusCode, response.body).toBe(204)

      const { db } = hub.handle
      expect(await db.selectFrom('totpCredentials').select('userId').where('userId', '=', person.userId).execute()).toEqual([])
      expect(await db.selectFrom('recoveryCodes').select('userId').where('userId', '=', person.userId).execute()).toEqual([])
      // The password alone signs in again: no second step asked.
      const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: person.email, password: GOOD_PASSWORD } })
      expect(login.json<{ mfaRequired?: boolean }>().mfaRequired).toBeUndefined()
      expect(await eventsOf(person.userId, 'account.two-step-removed')).toEqual([{ detail: { by: admin.userId }, ip: null }])

      const subject = 'An administrator turned off two-step sign-in for your Hearth account'
      await expect.poll(async () => (await mailsTo(smtp.server, person.email)).some((mail) => mail.subject === subject), { timeout: 10_000 }).toBe(true)
      const mail = (await mailsTo(smtp.server, person.email)).find((mail) => mail.subject === subject)
      expect(mail?.text).toContain(`two-step sign-in for the account ${person.email}`)
      expect(await activityOf(person)).toContain('An administrator turned off two-step sign-in for your account')

      // Already off: nothing more is mailed or recorded.
      expect((await request(admin, 'DELETE', `${USERS}/${person.userId}/two-step`)).statusCode).toBe(204)
      expect(await eventsOf(person.userId, 'account.two-step-removed')).toHaveLength(1)
    })

    it('mails the person in the language they chose', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, clock.now(), uniqueEmail('es'))
      await hub.handle.db.updateTable('users').set({ locale: 'es' }).where('id', '=', person.userId).execute()
      await turnOnTwoStep(hub.app, person, clock.now())
      clock.advance(TOTP_STEP_MS)
      expect((await request(admin, 'DELETE', `${USERS}/${person.userId}/two-step`)).statusCode).toBe(204)
      const subject = 'Un administrador ha desactivado el inicio de sesión en dos pasos de tu cuenta de Hearth'
      await expect.poll(async () => (await mailsTo(smtp.server, person.email)).some((mail) => mail.subject === subject), { timeout: 10_000 }).toBe(true)
    })

    it('deletes an account with the erasure users:delete makes', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const response = await request(admin, 'DELETE', `${USERS}/${person.userId}`)
      expect(response.statusCode, response.body).toBe(204)
      const { db } = hub.handle
      expect(await db.selectFrom('users').select('id').where('id', '=', person.userId).execute()).toEqual([])
      expect(await db.selectFrom('sessions').select('id').where('userId', '=', person.userId).execute()).toEqual([])
      expect((await db.selectFrom('auditEvents').select('type').where('userId', '=', person.userId).execute()).map(({ type }) => type)).toEqual(['account.deleted'])
      expect(await accountStatus(hub.app, person)).toBe(401)
      await expect.poll(async () => (await mailsTo(smtp.server, person.email)).some((mail) => mail.subject === 'Your Hearth account was deleted'), { timeout: 10_000 }).toBe(true)
      expect((await request(admin, 'DELETE', `${USERS}/${person.userId}`)).statusCode).toBe(404)
    })
  })

  describe('the last administrator', () => {
    it('cannot be demoted, disabled or deleted, by themselves either', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      await onlyAdministrator(admin)
      for (const [method, url, payload] of [
        ['PATCH', `${USERS}/${admin.userId}`, { role: 'member' }],
        ['PATCH', `${USERS}/${admin.userId}`, { disabled: true }],
        ['PATCH', `${USERS}/${admin.userId}`, { displayName: 'Still here', role: 'member' }],
        ['DELETE', `${USERS}/${admin.userId}`]
      ] as const) {
        const response = await request(admin, method, url, payload)
        expect(response.statusCode, `${method} ${JSON.stringify(payload)}`).toBe(409)
        expect(response.json()).toEqual(error(LAST_ADMINISTRATOR))
      }
      // Nothing of it was changed: the name neither.
      const row = await hub.handle.db.selectFrom('users').select(['role', 'disabled', 'displayName']).where('id', '=', admin.userId).executeTakeFirstOrThrow()
      expect(row).toEqual({ role: 'admin', disabled: 0, displayName: null })
      expect(await accountStatus(hub.app, admin)).toBe(200)
      // Nor may the account deleted from its own settings.
      const own = await hub.app.inject({ method: 'DELETE', url: '/api/account', headers: admin.headers, payload: { password: GOOD_PASSWORD } })
      expect(own.statusCode).toBe(409)
      expect(own.json()).toEqual(error(LAST_ADMINISTRATOR))
      expect(await accountStatus(hub.app, admin)).toBe(200)
    })

    it('may step down, or delete their account, once another administrator is enabled', async () => {
      const first = await signUpAdministrator(hub.app, hub.handle.db)
      await onlyAdministrator(first)
      const second = await signUpAdministrator(hub.app, hub.handle.db)
      // A disabled administrator does not count.
      await hub.handle.db.updateTable('users').set({ disabled: 1 }).where('id', '=', second.userId).execute()
      expect((await request(first, 'PATCH', `${USERS}/${first.userId}`, { role: 'member' })).statusCode).toBe(409)
      expect((await request(first, 'PATCH', `${USERS}/${second.userId}`, { disabled: false })).statusCode).toBe(200)
      const second2 = await logIn(hub.app, second.email)

      const down = await request(first, 'PATCH', `${USERS}/${first.userId}`, { role: 'member' })
      expect(down.statusCode, down.body).toBe(200)
      expect((await request(first, 'GET', USERS)).statusCode).toBe(403)
      expect((await request(second2, 'PATCH', `${USERS}/${second2.userId}`, { role: 'member' })).json()).toEqual(error(LAST_ADMINISTRATOR))

      const third = await signUpAdministrator(hub.app, hub.handle.db)
      const gone = await request(third, 'DELETE', `${USERS}/${third.userId}`)
      expect(gone.statusCode, gone.body).toBe(204)
      expect(await accountStatus(hub.app, third)).toBe(401)
    })

    it('is kept when two administrators demote each other at once', async () => {
      for (let round = 0; round < 3; round++) {
        const one = await signUpAdministrator(hub.app, hub.handle.db)
        await onlyAdministrator(one)
        const two = await signUpAdministrator(hub.app, hub.handle.db)
        const answers = await Promise.all([
          request(one, 'PATCH', `${USERS}/${two.userId}`, { role: 'member' }),
          request(two, 'PATCH', `${USERS}/${one.userId}`, { disabled: true }),
          request(one, 'DELETE', `${USERS}/${one.userId}`)
        ])
        const statuses = answers.map(({ statusCode }) => statusCode)
        const enabledAdmins = await hub.handle.db.selectFrom('users').select('id').where('role', '=', 'admin').where('disabled', '=', 0).execute()
        expect(enabledAdmins, JSON.stringify(statuses)).toHaveLength(1)
        // Each answers a refusal or a change; one made first may leave the others nothing (401 signed out, 404 gone).
        for (const status of statuses) expect([200, 204, 401, 403, 404, 409]).toContain(status)
      }
    })
  })

  describe('the applications', () => {
    // An application taking security events, at an address nothing listens on: the events wait in the outbox.
    const family = useHubApp(database, { config: { appEvents: { tasks: 'http://127.0.0.1:9/events' } }, securityEventSenderIntervalMs: 60_000 })
    const revokedFor = async (userId: string) =>
      (await family.handle.db.selectFrom('securityEventOutbox').select(['applicationId', 'eventType']).where('userId', '=', userId).execute()).filter(
        ({ eventType }) => eventType === SECURITY_EVENT_TYPES.sessionsRevoked
      )

    it('are told when an administrator signs a person out or disables the account', async () => {
      const admin = await signUpAdministrator(family.app, family.handle.db)
      const signedOut = await signUpAndLogIn(family.app)
      const disabled = await signUpAndLogIn(family.app)
      expect((await family.app.inject({ method: 'POST', url: `${USERS}/${signedOut.userId}/sign-out`, headers: admin.headers })).statusCode).toBe(204)
      expect((await family.app.inject({ method: 'PATCH', url: `${USERS}/${disabled.userId}`, headers: admin.headers, payload: { disabled: true } })).statusCode).toBe(200)
      for (const person of [signedOut, disabled]) expect(await revokedFor(person.userId)).toEqual([{ applicationId: 'tasks', eventType: SECURITY_EVENT_TYPES.sessionsRevoked }])
    })
  })
})
