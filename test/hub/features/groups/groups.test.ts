import { describe, expect, it } from 'vitest'
import { anonymousHeaders } from '../../../helpers/account-mail.js'
import { forgetRecentSignIns, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, pageCookies, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

/** Every test signs people up from one address. */
export const MANY_SIGN_UPS = { signupsPerIp: { limit: 10_000, windowMs: 60_000 } }

let groupCount = 0
const uniqueName = (label = 'Family') => `${label} ${process.pid} ${++groupCount}`

describe.each(databasesUnderTest())('the admin API of groups on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: MANY_SIGN_UPS })

  const call = (user: SignedIn | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    hub.app.inject({ method, url, ...(user ? { headers: user.headers } : {}), ...(payload ? { payload } : {}) })
  const create = async (admin: SignedIn, name = uniqueName(), description?: string) => {
    const response = await call(admin, 'POST', '/api/admin/groups', { name, ...(description === undefined ? {} : { description }) })
    expect(response.statusCode, response.body).toBe(201)
    return response.json<{ id: string; name: string; description: string; members: number }>()
  }
  const eventsOf = (userId: string, type: string) =>
    hub.handle.db.selectFrom('auditEvents').select(['detail']).where('userId', '=', userId).where('type', '=', type).orderBy('createdAt').orderBy('id').execute()

  it('makes a group: 201 {id, name, description, members}, listed by name with its member count', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const name = uniqueName('Zeta')
    const made = await create(admin, `  ${name} `, 'The whole household')
    expect(made).toMatchObject({ name, description: 'The whole household', members: 0 })
    expect(made.id).toEqual(expect.any(String))
    const member = await signUpAndLogIn(hub.app)
    expect((await call(admin, 'PUT', `/api/admin/groups/${made.id}/members/${member.userId}`)).statusCode).toBe(204)
    const list = await call(admin, 'GET', '/api/admin/groups')
    expect(list.statusCode).toBe(200)
    const listed = list.json<{ groups: { id: string; name: string; members: number }[] }>().groups
    expect(listed.find((group) => group.id === made.id)).toMatchObject({ name, description: 'The whole household', members: 1 })
    const names = listed.map((group) => group.name.toLowerCase())
    expect(names).toEqual([...names].sort())
  })

  it('keeps names unique whatever their case: 409 {error}', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const name = uniqueName('Kids')
    await create(admin, name)
    const again = await call(admin, 'POST', '/api/admin/groups', { name: name.toUpperCase() })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ error: 'A group with this name already exists' })
    const other = await create(admin)
    const renamed = await call(admin, 'PATCH', `/api/admin/groups/${other.id}`, { name: name.toLowerCase() })
    expect(renamed.statusCode).toBe(409)
    expect(renamed.json()).toEqual({ error: 'A group with this name already exists' })
  })

  it.each([
    ['an empty name', '   ', 'Group name is required'],
    ['a name over 64 characters', 'a'.repeat(65), 'Group name must be at most 64 characters'],
    ['a comma', 'family,admins', 'Group name may hold letters, digits, single spaces, dots, hyphens and underscores, and must begin and end with a letter or digit'],
    ['a leading hyphen', '-family', 'Group name may hold letters, digits, single spaces, dots, hyphens and underscores, and must begin and end with a letter or digit'],
    ['two spaces in a row', 'the  family', 'Group name may hold letters, digits, single spaces, dots, hyphens and underscores, and must begin and end with a letter or digit'],
    ['a zero-width space', 'fam\u200bily', 'Group name may hold letters, digits, single spaces, dots, hyphens and underscores, and must begin and end with a letter or digit'],
    ['a control character', 'fam\u0007ily', 'Name must not contain control characters or unpaired surrogates']
  ])('refuses %s: 400', async (_, name, error) => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const response = await call(admin, 'POST', '/api/admin/groups', { name })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error })
  })

  it('takes letters of any script, digits, dots, hyphens and underscores', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const name = `Familia_Peña-${process.pid}.${++groupCount} 2`
    expect((await create(admin, name)).name).toBe(name)
  })

  it('refuses a description with invisible characters or over 200 characters: 400', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const invisible = await call(admin, 'POST', '/api/admin/groups', { name: uniqueName(), description: 'a\u200bb' })
    expect(invisible.json()).toEqual({ error: 'Group description must not contain control or invisible characters' })
    const long = await call(admin, 'POST', '/api/admin/groups', { name: uniqueName(), description: 'a'.repeat(201) })
    expect(long.json()).toEqual({ error: 'Group description must be at most 200 characters' })
  })

  it('renames and describes a group: 200 the group, and one group with its members by GET', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const group = await create(admin)
    const name = uniqueName('Renamed')
    const patched = await call(admin, 'PATCH', `/api/admin/groups/${group.id}`, { name, description: 'Now described' })
    expect(patched.statusCode).toBe(200)
    expect(patched.json()).toMatchObject({ id: group.id, name, description: 'Now described', members: 0 })
    const member = await signUpAndLogIn(hub.app)
    await call(admin, 'PUT', `/api/admin/groups/${group.id}/members/${member.userId}`)
    const one = await call(admin, 'GET', `/api/admin/groups/${group.id}`)
    expect(one.statusCode).toBe(200)
    expect(one.json()).toMatchObject({ id: group.id, name, members: 1, accounts: [{ userId: member.userId, email: member.email, displayName: null }] })
    expect((await call(admin, 'GET', '/api/admin/groups/nope')).json()).toEqual({ error: 'No group has this id' })
    expect((await call(admin, 'PATCH', '/api/admin/groups/nope', { name: uniqueName() })).statusCode).toBe(404)
  })

  it("adds and removes members idempotently (204), each change on the member's trail naming the administrator", async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const group = await create(admin, uniqueName('Family'))
    const member = await signUpAndLogIn(hub.app)
    const url = `/api/admin/groups/${group.id}/members/${member.userId}`
    expect((await call(admin, 'PUT', url)).statusCode).toBe(204)
    expect((await call(admin, 'PUT', url)).statusCode).toBe(204)
    expect((await call(admin, 'GET', `/api/admin/groups/${group.id}`)).json<{ members: number }>().members).toBe(1)
    expect((await call(admin, 'DELETE', url)).statusCode).toBe(204)
    expect((await call(admin, 'DELETE', url)).statusCode).toBe(204)
    expect((await eventsOf(member.userId, 'group.joined')).map((row) => JSON.parse(row.detail))).toEqual([{ groupId: group.id, group: group.name, by: admin.userId }])
    expect((await eventsOf(member.userId, 'group.left')).map((row) => JSON.parse(row.detail))).toEqual([{ groupId: group.id, group: group.name, by: admin.userId }])
    expect((await call(admin, 'PUT', `/api/admin/groups/${group.id}/members/nobody`)).json()).toEqual({ error: 'No account has this id' })
    expect((await call(admin, 'PUT', `/api/admin/groups/nope/members/${member.userId}`)).json()).toEqual({ error: 'No group has this id' })
  })

  it('reads the membership on the member’s activity page, in English and Spanish', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const group = await create(admin, uniqueName('Family'))
    const member = await signUpAndLogIn(hub.app)
    await call(admin, 'PUT', `/api/admin/groups/${group.id}/members/${member.userId}`)
    const en = await hub.app.inject({ method: 'GET', url: '/activity', headers: pageCookies(member, { lang: 'en' }) })
    expect(en.body).toContain(`An administrator added you to the group ${group.name}`)
    const es = await hub.app.inject({ method: 'GET', url: '/activity', headers: pageCookies(member, { lang: 'es' }) })
    expect(es.body).toContain(`Un administrador te añadió al grupo ${group.name}`)
  })

  it("puts a member's groups in their data export", async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const group = await create(admin, uniqueName('Exported'), 'Ours')
    const member = await signUpAndLogIn(hub.app)
    await call(admin, 'PUT', `/api/admin/groups/${group.id}/members/${member.userId}`)
    const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: member.headers, payload: { format: 'json' } })
    expect(exported.statusCode, exported.body).toBe(200)
    expect(exported.json<{ datasets: Record<string, unknown[]> }>().datasets.groups).toEqual([{ id: group.id, recordedAt: expect.any(String), name: group.name, description: 'Ours' }])
  })

  it("deletes a group (204): its members leave it, each trail saying so, and the administrator's trail records it", async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const group = await create(admin)
    const member = await signUpAndLogIn(hub.app)
    await call(admin, 'PUT', `/api/admin/groups/${group.id}/members/${member.userId}`)
    expect((await call(admin, 'DELETE', `/api/admin/groups/${group.id}`)).statusCode).toBe(204)
    expect((await call(admin, 'GET', `/api/admin/groups/${group.id}`)).statusCode).toBe(404)
    expect(await hub.handle.db.selectFrom('groupMembers').selectAll().where('groupId', '=', group.id).execute()).toEqual([])
    expect((await eventsOf(member.userId, 'group.left')).map((row) => JSON.parse(row.detail))).toEqual([{ groupId: group.id, group: group.name, by: admin.userId, groupDeleted: true }])
    expect((await eventsOf(admin.userId, 'group.deleted')).map((row) => JSON.parse(row.detail))).toEqual([{ groupId: group.id, group: group.name, members: 1 }])
    expect((await call(admin, 'DELETE', `/api/admin/groups/${group.id}`)).statusCode).toBe(404)
  })

  describe('who may', () => {
    const routes = [
      ['GET', '/api/admin/groups', false],
      ['POST', '/api/admin/groups', true],
      ['GET', '/api/admin/groups/G', false],
      ['PATCH', '/api/admin/groups/G', true],
      ['DELETE', '/api/admin/groups/G', true],
      ['PUT', '/api/admin/groups/G/members/U', true],
      ['DELETE', '/api/admin/groups/G/members/U', true]
    ] as const
    const bodyOf = (method: string) => (method === 'POST' ? { name: uniqueName() } : method === 'PATCH' ? { description: 'x' } : undefined)

    it.each(routes)('%s %s: 401 signed out', async (method, url) => {
      const response = await hub.app.inject({ method, url, headers: await anonymousHeaders(hub.app), ...(bodyOf(method) ? { payload: bodyOf(method) } : {}) })
      expect(response.statusCode).toBe(401)
    })

    it.each(routes)('%s %s: 403 {error} for a member', async (method, url) => {
      const member = await signUpAndLogIn(hub.app)
      const response = await call(member, method, url, bodyOf(method))
      expect(response.statusCode).toBe(403)
      expect(response.json()).toEqual({ error: expect.any(String) })
    })

    it.each(routes.filter(([, , changes]) => changes))('%s %s: 401 for an administrator without a recent sign-in', async (method, url) => {
      const admin = await signUpAdministrator(hub.app, hub.handle.db)
      const group = await create(admin)
      const member = await signUpAndLogIn(hub.app)
      await forgetRecentSignIns(hub.handle.db)
      const response = await call(admin, method, url.replace('/G', `/${group.id}`).replace('/U', `/${member.userId}`), bodyOf(method))
      expect(response.statusCode).toBe(401)
      expect(response.headers['www-authenticate']).toMatch(/insufficient_user_authentication/)
    })
  })
})

