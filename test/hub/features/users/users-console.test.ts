import { describe, expect, it } from 'vitest'
import { forgetRecentSignIns, postForm, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, expectStrictPageCsp, pageCookies, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'

const USERS_PAGE = '/admin/users'

describe.each(databasesUnderTest())('the console’s Users section on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: { signupsPerIp: { limit: 10_000, windowMs: 60_000 } } })
  const page = (user: SignedIn | undefined, url: string, lang = 'en') => hub.app.inject({ method: 'GET', url, headers: user ? pageCookies(user, { lang }) : {} })
  const rowOf = (userId: string) => hub.handle.db.selectFrom('users').select(['role', 'disabled', 'displayName']).where('id', '=', userId).executeTakeFirst()
  const onlyAdministrator = async (admin: SignedIn) => {
    await hub.handle.db.updateTable('users').set({ role: 'member' }).where('id', '<>', admin.userId).execute()
  }

  describe('its pages', () => {
    it('lists the accounts for an administrator, in English and Spanish, under the strict CSP', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const en = await page(admin, USERS_PAGE)
      expect(en.statusCode).toBe(200)
      expectStrictPageCsp(en, USERS_PAGE)
      expect(en.body.match(/<h1>Users<\/h1>/g)).toHaveLength(1)
      expect(en.body).toContain('href="/admin/invitations">Invite someone</a>')
      expect(en.body).toMatch(/<form method="get" action="\/admin\/users" role="search"/)
      expect(en.body).toContain(`href="/admin/users/${person.userId}">${person.email}</a>`)
      // The hub's table, which becomes cards on a phone: each cell labelled with its column.
      expect(en.body).toContain('<td data-label="Last sign-in">')
      expect(en.body).toContain('aria-current="page">Users</a>')

      const es = await page(admin, USERS_PAGE, 'es')
      expect(es.statusCode).toBe(200)
      expect(es.body).toContain('<h1>Usuarios</h1>')
      expect(es.body).toContain('Invitar a alguien')
      expect(es.body).toContain('<td data-label="Último inicio de sesión">')
    })

    it('finds accounts by address or name, and pages through them', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const tag = `c${Date.now().toString(36)}`
      const ana = await signUpAndLogIn(hub.app, `ana-${tag}@example.com`)
      const bea = await signUpAndLogIn(hub.app, `bea-${tag}@example.com`)
      await hub.handle.db.updateTable('users').set({ displayName: `Bea ${tag}` }).where('id', '=', bea.userId).execute()
      const found = await page(admin, `${USERS_PAGE}?query=ANA-${tag}`)
      expect(found.body).toContain(ana.email)
      expect(found.body).not.toContain(bea.email)
      expect(found.body).toContain(`value="ANA-${tag}"`)
      const none = await page(admin, `${USERS_PAGE}?query=nobody-${tag}`)
      expect(none.body).toContain(`No account matches “nobody-${tag}”.`)
      // A garbled link to a later page shows the first one.
      expect((await page(admin, `${USERS_PAGE}?query=${tag}&cursor=garbled`)).statusCode).toBe(200)

      for (let n = 0; n < 55; n++) await hub.handle.db.insertInto('users').values({ id: crypto.randomUUID(), email: `many-${n}-${tag}@example.com`, passwordHash: 'x', disabled: 0, createdAt: new Date(Date.UTC(2020, 0, 1, 0, n)).toISOString(), updatedAt: new Date().toISOString() }).execute()
      const first = await page(admin, `${USERS_PAGE}?query=many-`)
      const next = /href="(\/admin\/users\?query=many-&amp;cursor=[^"]+)" rel="next"/.exec(first.body)?.[1]
      expect(next).toBeDefined()
      const second = await page(admin, (next ?? '').replaceAll('&amp;', '&'))
      expect(second.statusCode).toBe(200)
      expect(second.body).toContain(`many-0-${tag}@example.com`)
      expect(first.body).not.toContain(`many-0-${tag}@example.com`)
    })

    it('shows one account with a form for each change, each carrying the CSRF token', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const response = await page(admin, `${USERS_PAGE}/${person.userId}`)
      expect(response.statusCode).toBe(200)
      expectStrictPageCsp(response, 'account page')
      for (const action of ['role', 'status', 'sign-out', 'name', 'delete']) expect(response.body).toContain(`action="/admin/users/${person.userId}/${action}"`)
      // Two-step sign-in is off: nothing to turn off.
      expect(response.body).not.toContain(`action="/admin/users/${person.userId}/two-step"`)
      expect(response.body.match(/<input type="hidden" name="_csrf" value="[^"]+"\/>/g)).toHaveLength(5)
      expect(response.body).toContain('Make administrator')
      expect(response.body).toMatch(/<input type="checkbox" name="confirm" value="yes" required/)

      const gone = await page(admin, `${USERS_PAGE}/no-such-account`)
      expect(gone.statusCode).toBe(303)
      expect(gone.headers.location).toBe(`${USERS_PAGE}?error=not-found`)
      expect((await page(admin, `${USERS_PAGE}?error=not-found`)).body).toContain('That account no longer exists.')
    })

    it('is not found for a member, and sends someone signed out to sign in', async () => {
      const member = await signUpAndLogIn(hub.app)
      for (const url of [USERS_PAGE, `${USERS_PAGE}/${member.userId}`]) {
        expect((await page(member, url)).statusCode, url).toBe(404)
        const signedOut = await page(undefined, url)
        expect(signedOut.statusCode).toBe(303)
        expect(signedOut.headers.location).toBe(`/login?next=${encodeURIComponent(url)}`)
      }
    })
  })

  describe('its forms', () => {
    it('refuses a form without its CSRF token, and a member’s', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const forged = await postForm(hub.app, admin, `${USERS_PAGE}/${person.userId}/status`, { disabled: 'true' }, '')
      expect(forged.statusCode).toBe(403)
      expect((await rowOf(person.userId))?.disabled).toBe(0)
      const member = await signUpAndLogIn(hub.app)
      expect((await postForm(hub.app, member, `${USERS_PAGE}/${person.userId}/status`, { disabled: 'true' })).statusCode).toBe(403)
      expect((await rowOf(person.userId))?.disabled).toBe(0)
    })

    it('sends an administrator without a recent sign-in to confirm it, then back to the account', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      await forgetRecentSignIns(hub.handle.db)
      const response = await postForm(hub.app, admin, `${USERS_PAGE}/${person.userId}/status`, { disabled: 'true' })
      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe(`/admin/confirm?next=${encodeURIComponent(`${USERS_PAGE}/${person.userId}`)}`)
      expect((await rowOf(person.userId))?.disabled).toBe(0)
    })

    it('makes each change and says so on the account’s page', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const person = await signUpAndLogIn(hub.app)
      const back = `${USERS_PAGE}/${person.userId}`
      const post = async (action: string, fields: Record<string, string>, location: string) => {
        const response = await postForm(hub.app, admin, `${back}/${action}`, fields)
        expect(response.statusCode, response.body).toBe(303)
        expect(response.headers.location).toBe(location)
      }

      await post('status', { disabled: 'true' }, `${back}?notice=disabled`)
      expect((await rowOf(person.userId))?.disabled).toBe(1)
      expect((await page(admin, `${back}?notice=disabled`)).body).toMatch(/<p class="notice" role="status">The account was disabled and its sessions ended.<\/p>/)
      await post('status', { disabled: 'false' }, `${back}?notice=enabled`)
      expect((await rowOf(person.userId))?.disabled).toBe(0)
      await post('role', { role: 'admin' }, `${back}?notice=role-changed`)
      expect((await rowOf(person.userId))?.role).toBe('admin')
      await post('name', { displayName: 'Ana' }, `${back}?notice=name-changed`)
      expect((await rowOf(person.userId))?.displayName).toBe('Ana')
      await post('name', { displayName: '   ' }, `${back}?error=name-invalid`)
      expect((await page(admin, `${back}?error=name-invalid`)).body).toContain('A display name is 1 to 64 visible characters.')
      await post('sign-out', {}, `${back}?notice=signed-out`)
      expect(await hub.handle.db.selectFrom('sessions').select('id').where('userId', '=', person.userId).execute()).toEqual([])
      await post('two-step', {}, `${back}?notice=two-step-was-off`)

      await post('delete', {}, `${back}?error=confirm-delete`)
      expect(await rowOf(person.userId)).toBeDefined()
      await post('delete', { confirm: 'yes' }, `${USERS_PAGE}?notice=deleted`)
      expect(await rowOf(person.userId)).toBeUndefined()
      expect((await page(admin, `${USERS_PAGE}?notice=deleted`)).body).toContain('The account was deleted.')
      await post('status', { disabled: 'true' }, `${USERS_PAGE}?error=not-found`)
    })

    it('shows why the last administrator cannot step down, in the page’s language', async () => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db, uniqueEmail('last'))
      await onlyAdministrator(admin)
      const back = `${USERS_PAGE}/${admin.userId}`
      for (const [action, fields] of [
        ['role', { role: 'member' }],
        ['status', { disabled: 'true' }],
        ['delete', { confirm: 'yes' }]
      ] as const) {
        const response = await postForm(hub.app, admin, `${back}/${action}`, fields)
        expect(response.statusCode).toBe(303)
        expect(response.headers.location).toBe(`${back}?error=last-admin`)
      }
      expect(await rowOf(admin.userId)).toEqual({ role: 'admin', disabled: 0, displayName: null })
      const en = await page(admin, `${back}?error=last-admin`)
      expect(en.body).toContain('<p class="form-message" role="alert">This is the last administrator of the hub')
      expect((await page(admin, `${back}?error=last-admin`, 'es')).body).toContain('Es el último administrador del hub')
    })
  })
})
