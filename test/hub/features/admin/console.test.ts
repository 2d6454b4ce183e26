import { describe, expect, it } from 'vitest'
import { totpCode } from '../../../../src/hub/features/two-step/totp.js'
import { createAuditTrail } from '../../../../src/hub/kernel/audit/repository.js'
import { createMailQueue } from '../../../../src/hub/kernel/mail/queue.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { forgetRecentSignIns, postForm, signUpAdministrator } from '../../../helpers/administrators.js'
import { GOOD_PASSWORD, type SignedIn, expectStrictPageCsp, pageCookies, signUpAndLogIn, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { TOTP_STEP_MS, turnOnTwoStep } from '../../../helpers/two-step.js'

interface AdminEvent {
  userId: string
  email: string | null
  type: string
  at: string
  ip: string | null
  detail: Record<string, unknown>
}
interface AdminActivityPage {
  events: AdminEvent[]
  hasMore: boolean
  nextCursor: string | null
}

describe.each(databasesUnderTest())('the console’s own parts on $name', (database) => {
  const clock = testClock(new Date())
  // The sender stays idle, so the queue's count holds still while a test reads it.
  const hub = useHubApp(database, { now: clock.now, mailSenderIntervalMs: 3_600_000 })
  const get = (user: SignedIn, url: string) => hub.app.inject({ method: 'GET', url, headers: user.headers })
  const page = (user: SignedIn, url: string, language = 'en') => hub.app.inject({ method: 'GET', url, headers: { ...pageCookies(user), 'accept-language': language } })

  it('counts accounts, administrators, disabled accounts, pending invitations, queued mail and undelivered events', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const before = (await get(admin, '/api/admin/overview')).json<Record<string, number>>()
    const member = await signUpAndLogIn(hub.app)
    await hub.handle.db.updateTable('users').set({ disabled: 1 }).where('id', '=', member.userId).execute()
    const now = clock.now()
    const day = 86_400_000
    const invitation = (id: string, change: Record<string, string | null>) => ({
      id,
      email: uniqueEmail('invited'),
      tokenHash: `hash-${id}-${String(Math.random())}`,
      groupIds: '[]',
      invitedBy: admin.userId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 7 * day).toISOString(),
      usedAt: null,
      withdrawnAt: null,
      ...change
    })
    await hub.handle.db
      .insertInto('invitations')
      .values([
        invitation(crypto.randomUUID(), {}),
        invitation(crypto.randomUUID(), { usedAt: now.toISOString() }),
        invitation(crypto.randomUUID(), { withdrawnAt: now.toISOString() }),
        invitation(crypto.randomUUID(), { expiresAt: new Date(now.getTime() - day).toISOString() })
      ])
      .execute()
    await createMailQueue(hub.handle.db).enqueue({ to: 'someone@example.com', subject: 'Hello', text: 'x', html: 'x', userId: null }, new Date(now.getTime() + day))
    await hub.handle.db
      .insertInto('securityEventOutbox')
      .values({ id: crypto.randomUUID(), applicationId: 'tasks', eventType: 'https://schemas.openid.net/secevent/risc/event-type/account-disabled', userId: member.userId, createdAt: now.toISOString(), attempts: 2, nextAttemptAt: new Date(now.getTime() + day).toISOString(), lastError: '500 from tasks' })
      .execute()

    const response = await get(admin, '/api/admin/overview')
    expect(response.statusCode).toBe(200)
    const after = response.json<Record<string, number>>()
    expect(Object.keys(after).sort()).toEqual(['accounts', 'admins', 'disabled', 'pendingInvitations', 'pendingSecurityEvents', 'queuedMail'])
    expect(after.accounts).toBe((before.accounts ?? 0) + 1)
    expect(after.admins).toBe(before.admins)
    expect(after.disabled).toBe((before.disabled ?? 0) + 1)
    expect(after.pendingInvitations).toBe((before.pendingInvitations ?? 0) + 1)
    // The mail above, and the member's verification mail.
    expect(after.queuedMail).toBe((before.queuedMail ?? 0) + 2)
    expect(after.pendingSecurityEvents).toBe((before.pendingSecurityEvents ?? 0) + 1)

    // The front page shows them, in both languages, under the strict CSP; its sections lead the navigation.
    for (const [language, heading] of [['en', 'Pending invitations'], ['es', 'Invitaciones pendientes']] as const) {
      const front = await page(admin, '/admin', language)
      expect(front.statusCode).toBe(200)
      expect(front.body).toContain(heading)
      expect(front.body).toContain(`<dd>${String(after.pendingInvitations)}</dd>`)
      expectStrictPageCsp(front, '/admin')
    }
    const front = await page(admin, '/admin')
    expect(front.body).toMatch(/<a href="\/admin" aria-current="page">Overview<\/a>[\s\S]*<a href="\/admin\/activity">Activity<\/a>[\s\S]*<a href="\/admin\/queues">Queues<\/a>/)

    // The queues page lists both, read-only, and never a mail's body.
    const queues = await page(admin, '/admin/queues')
    expect(queues.statusCode).toBe(200)
    expect(queues.body).toContain('someone@example.com')
    expect(queues.body).toContain('Hello')
    expect(queues.body).toContain('account-disabled')
    expect(queues.body).toContain('500 from tasks')
    expect(queues.body).toContain(member.email)
    expect(queues.body).not.toContain('<form method="post"')
    const colas = await page(admin, '/admin/queues', 'es')
    expect(colas.body).toContain('Bandeja de salida del correo')
  })

  it("lists every account's events newest first, each with whose it is and its owner's sentence; filters by account and type; pages by cursor", async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const person = await signUpAndLogIn(hub.app, uniqueEmail('watched'), '10.3.3.3')
    const trail = createAuditTrail(hub.handle.db)
    const start = clock.now().getTime()
    for (let minute = 1; minute <= 5; minute += 1) await trail.record({ userId: person.userId, type: 'password.changed', ip: '10.3.3.3' }, new Date(start + minute * 60_000))

    const all = (await get(admin, '/api/admin/activity?limit=100')).json<AdminActivityPage>()
    const times = all.events.map((event) => event.at)
    expect([...times].sort().reverse()).toEqual(times)
    expect(new Set(all.events.map((event) => event.userId)).size).toBeGreaterThan(1)
    expect(all.events[0]).toEqual({ userId: person.userId, email: person.email, type: 'password.changed', at: expect.any(String), ip: '10.3.3.3', userAgent: null, detail: {} })

    const mine = (await get(admin, `/api/admin/activity?userId=${person.userId}&type=password.changed&limit=2`)).json<AdminActivityPage>()
    expect(mine.events).toHaveLength(2)
    expect(mine.hasMore).toBe(true)
    const pages = [mine]
    for (let last = mine; last.nextCursor; ) {
      last = (await get(admin, `/api/admin/activity?userId=${person.userId}&type=password.changed&limit=2&cursor=${encodeURIComponent(last.nextCursor)}`)).json<AdminActivityPage>()
      pages.push(last)
    }
    expect(pages.flatMap((one) => one.events)).toHaveLength(5)
    expect(pages.at(-1)?.nextCursor).toBeNull()

    // A deleted account's events stay, without an address.
    await hub.handle.db.deleteFrom('users').where('id', '=', person.userId).execute()
    const gone = (await get(admin, `/api/admin/activity?userId=${person.userId}&limit=1`)).json<AdminActivityPage>()
    expect(gone.events[0]?.email).toBeNull()

    for (const query of ['?type=no.such.type', '?limit=0', '?limit=101', '?cursor=garbled', '?userId=not-a-uuid']) {
      const refused = await get(admin, `/api/admin/activity${query}`)
      expect(refused.statusCode, query).toBe(400)
      expect(refused.json(), query).toEqual({ error: expect.any(String) })
    }
  })

  it('shows the activity page with its filters as a GET form, the owner’s sentences, and a next link', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const person = await signUpAndLogIn(hub.app, uniqueEmail('paged'))
    const trail = createAuditTrail(hub.handle.db)
    for (let minute = 1; minute <= 25; minute += 1) await trail.record({ userId: person.userId, type: 'password.changed' }, new Date(clock.now().getTime() + minute * 60_000))

    const first = await page(admin, `/admin/activity?account=${encodeURIComponent(person.email.toUpperCase())}&type=password.changed`)
    expect(first.statusCode).toBe(200)
    expect(first.body).toContain('<form method="get" action="/admin/activity"')
    expect(first.body.match(/data-type="password.changed"/g)).toHaveLength(20)
    expect(first.body).toContain('Changed your password')
    const next = /<a href="([^"]+)" rel="next">/.exec(first.body)?.[1]?.replaceAll('&amp;', '&')
    expect(next).toContain('cursor=')
    const second = await page(admin, next ?? '')
    expect(second.body.match(/data-type="password.changed"/g)).toHaveLength(5)
    expect(second.body).not.toContain('rel="next"')

    const byId = await page(admin, `/admin/activity?account=${person.userId}&type=password.changed`, 'es')
    expect(byId.body.match(/data-type="password.changed"/g)).toHaveLength(20)
    expect(byId.body).toContain('Actividad de todas las cuentas')
    const nobody = await page(admin, '/admin/activity?account=nobody%40example.com')
    expect(nobody.body).toContain('No account has the address or id nobody@example.com.')
    // A garbled cursor shows the newest page, as the person's own activity page does.
    expect((await page(admin, '/admin/activity?cursor=garbled')).statusCode).toBe(200)
  })

  it('answers 404 to a member on every console page, and leaves the navigation link out for them', async () => {
    const member = await signUpAndLogIn(hub.app)
    for (const url of ['/admin', '/admin/activity', '/admin/queues', '/admin/confirm']) {
      const response = await page(member, url)
      expect(response.statusCode, url).toBe(404)
    }
    const dashboard = await page(member, '/dashboard')
    expect(dashboard.body).not.toContain('href="/admin"')
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    expect((await page(admin, '/dashboard')).body).toContain('href="/admin"')
  })

  describe('the confirm step without script', () => {
    it('records a recent sign-in with the password and sends the person on to the console path they came from', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      await forgetRecentSignIns(hub.handle.db)
      const stale = await hub.app.inject({ method: 'PATCH', url: '/api/admin/no-such-route', headers: admin.headers, payload: {} })
      expect(stale.statusCode).toBe(404)

      const form = await page(admin, '/admin/confirm?next=%2Fadmin%2Factivity%3Ftype%3Dsignin')
      expect(form.statusCode).toBe(200)
      expect(form.body).toContain('name="password"')
      expect(form.body).toContain('value="/admin/activity?type=signin"')
      expectStrictPageCsp(form, '/admin/confirm')

      const wrong = await postForm(hub.app, admin, '/admin/confirm', { next: '/admin/activity?type=signin', password: 'not my password' })
      expect(wrong.statusCode).toBe(303)
      expect(wrong.headers.location).toBe('/admin/confirm?next=%2Fadmin%2Factivity%3Ftype%3Dsignin&refused=wrong-password')
      const told = await page(admin, String(wrong.headers.location), 'es')
      expect(told.body).toContain('Esa contraseña no es correcta')
      expect(await recentProofs(admin)).toEqual([])

      const right = await postForm(hub.app, admin, '/admin/confirm', { next: '/admin/activity?type=signin', password: GOOD_PASSWORD })
      expect(right.statusCode).toBe(303)
      expect(right.headers.location).toBe('/admin/activity?type=signin')
      expect(await recentProofs(admin)).toEqual(['password'])
    })

    it('leads only to the console: any other next goes to the console’s front page', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      for (const next of ['https://evil.example/admin', '//evil.example/admin', '/dashboard', '/administrator', '/admin/../dashboard', '/admin/confirm', '/\\evil.example']) {
        const response = await postForm(hub.app, admin, '/admin/confirm', { next, password: GOOD_PASSWORD })
        expect(response.headers.location, next).toBe('/admin')
      }
    })

    it('refuses the form without its _csrf field, a member, and nobody signed in', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const forged = await postForm(hub.app, admin, '/admin/confirm', { password: GOOD_PASSWORD }, 'forged')
      expect(forged.statusCode).toBe(403)
      const member = await signUpAndLogIn(hub.app)
      expect((await postForm(hub.app, member, '/admin/confirm', { password: GOOD_PASSWORD })).statusCode).toBe(403)
      const nobody = await hub.app.inject({ method: 'POST', url: '/admin/confirm', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'password=x' })
      expect(nobody.statusCode).toBe(401)
    })

    it('with two-step sign-in on, asks the authenticator code, refuses the password alone, and counts wrong tries toward the lockout', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      await hub.handle.db.updateTable('users').set({ emailVerified: 1 }).where('id', '=', admin.userId).execute()
      const { secret } = await turnOnTwoStep(hub.app, admin, clock.now())
      clock.advance(2 * TOTP_STEP_MS)
      const form = await page(admin, '/admin/confirm?next=%2Fadmin%2Fqueues')
      expect(form.body).toContain('name="code"')
      expect(form.body).not.toContain('name="password"')

      const passwordAlone = await postForm(hub.app, admin, '/admin/confirm', { next: '/admin/queues', password: GOOD_PASSWORD })
      expect(passwordAlone.headers.location).toBe('/admin/confirm?next=%2Fadmin%2Fqueues&refused=code-required')
      const wrong = await postForm(hub.app, admin, '/admin/confirm', { next: '/admin/queues', code: totpCode(secret, new Date(clock.now().getTime() + 10 * TOTP_STEP_MS)) })
      expect(wrong.headers.location).toBe('/admin/confirm?next=%2Fadmin%2Fqueues&refused=wrong-code')
      const right = await postForm(hub.app, admin, '/admin/confirm', { next: '/admin/queues', code: totpCode(secret, clock.now()) })
      expect(right.headers.location).toBe('/admin/queues')
      expect((await recentProofs(admin)).at(-1)).toBe('totp')
      clock.advance(2 * TOTP_STEP_MS)

      // Ten wrong codes lock confirming as they lock logins.
      const locations: string[] = []
      for (let attempt = 0; attempt < 11; attempt += 1) {
        const response = await postForm(hub.app, admin, '/admin/confirm', { next: '/admin/queues', code: '000000' })
        locations.push(String(response.headers.location))
      }
      expect(locations.at(-1)).toBe('/admin/confirm?next=%2Fadmin%2Fqueues&refused=too-many')
      expect((await page(admin, locations.at(-1) ?? '')).body).toContain('Too many tries')
    })
  })

  async function recentProofs(user: SignedIn): Promise<string[]> {
    const rows = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', user.userId).where('type', '=', 'session.reauthenticated').orderBy('createdAt').execute()
    return rows.map(({ detail }) => String((JSON.parse(detail) as { method: string }).method))
  }

})
