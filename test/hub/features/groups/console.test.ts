import { describe, expect, it } from 'vitest'
import { forgetRecentSignIns, postForm, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, expectStrictPageCsp, pageCookies, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

const MANY_SIGN_UPS = { signupsPerIp: { limit: 10_000, windowMs: 60_000 } }
let groupCount = 0
const uniqueName = () => `Household ${process.pid} ${++groupCount}`

describe.each(databasesUnderTest())("the console's groups on $name", (database) => {
  const hub = useHubApp(database, { rateLimits: MANY_SIGN_UPS })

  const page = (user: SignedIn | null, url: string, lang = 'en') =>
    hub.app.inject({ method: 'GET', url, ...(user ? { headers: pageCookies(user, { lang }) } : {}) })
  const groupNamed = (name: string) => hub.handle.db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst()
  const makeGroup = async (admin: SignedIn, name = uniqueName()) => {
    const response = await postForm(hub.app, admin, '/admin/groups', { name, description: 'Everyone at home' })
    expect(response.statusCode, response.body).toBe(303)
    const group = await groupNamed(name)
    if (!group) throw new Error('no group made')
    expect(response.headers.location).toBe(`/admin/groups/${group.id}?notice=created`)
    return group
  }

  it('shows every group to an administrator, in English and Spanish, under the strict CSP; 404 for a member; the login page signed out', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const group = await makeGroup(admin)
    const en = await page(admin, '/admin/groups')
    expect(en.statusCode).toBe(200)
    expect(en.body).toContain(group.name)
    expect(en.body).toContain('New group')
    expect(en.body).toContain(`href="/admin/groups/${group.id}"`)
    expectStrictPageCsp(en, '/admin/groups')
    const es = await page(admin, '/admin/groups', 'es')
    expect(es.body).toContain('Nuevo grupo')
    const member = await signUpAndLogIn(hub.app)
    expect((await page(member, '/admin/groups')).statusCode).toBe(404)
    expect((await page(member, `/admin/groups/${group.id}`)).statusCode).toBe(404)
    const signedOut = await page(null, '/admin/groups')
    expect(signedOut.statusCode).toBe(303)
    expect(signedOut.headers.location).toMatch(/^\/login\?next=/)
    expect((await page(admin, '/admin/groups/no-such-group')).statusCode).toBe(404)
  })

  it("makes a group from a form without script, and says why it refused one in the page's words", async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const group = await makeGroup(admin)
    const shown = await page(admin, `/admin/groups/${group.id}?notice=created`)
    expect(shown.body).toContain('The group was made.')
    const taken = await postForm(hub.app, admin, '/admin/groups', { name: group.name.toUpperCase() })
    expect(taken.statusCode).toBe(303)
    expect(taken.headers.location).toBe('/admin/groups?error=nameTaken')
    expect((await page(admin, '/admin/groups?error=nameTaken', 'es')).body).toContain('Otro grupo ya tiene este nombre')
    const bad = await postForm(hub.app, admin, '/admin/groups', { name: 'a,b' })
    expect(bad.headers.location).toBe('/admin/groups?error=nameCharacters')
  })

  it('refuses a form without its _csrf field (403), and sends an administrator without a recent sign-in to confirm it, then back', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const name = uniqueName()
    const forged = await postForm(hub.app, admin, '/admin/groups', { name }, '')
    expect(forged.statusCode).toBe(403)
    await forgetRecentSignIns(hub.handle.db)
    const stale = await postForm(hub.app, admin, '/admin/groups', { name })
    expect(stale.statusCode).toBe(303)
    expect(stale.headers.location).toBe(`/admin/confirm?next=${encodeURIComponent('/admin/groups')}`)
    expect(await groupNamed(name)).toBeUndefined()
  })

  it("adds a member by address, lists them on the group's page, removes them, renames and deletes the group only when confirmed", async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const group = await makeGroup(admin)
    const member = await signUpAndLogIn(hub.app)
    const path = `/admin/groups/${group.id}`

    const added = await postForm(hub.app, admin, `${path}/members`, { email: member.email.toUpperCase() })
    expect(added.headers.location).toBe(`${path}?notice=added`)
    const listed = await page(admin, path)
    expect(listed.body).toContain(member.email)
    expect(listed.body).toContain(`action="${path}/members/${member.userId}/remove"`)
    expect((await postForm(hub.app, admin, `${path}/members`, { email: 'nobody@example.com' })).headers.location).toBe(`${path}?error=noAccountWithEmail`)

    const removed = await postForm(hub.app, admin, `${path}/members/${member.userId}/remove`, {})
    expect(removed.headers.location).toBe(`${path}?notice=removed`)
    expect((await page(admin, path)).body).not.toContain(member.email)

    const name = uniqueName()
    const renamed = await postForm(hub.app, admin, path, { name, description: 'Renamed' })
    expect(renamed.headers.location).toBe(`${path}?notice=updated`)
    expect(await groupNamed(name)).toMatchObject({ id: group.id, description: 'Renamed' })

    const unconfirmed = await postForm(hub.app, admin, `${path}/delete`, {})
    expect(unconfirmed.headers.location).toBe(`${path}?error=confirm`)
    expect(await groupNamed(name)).toBeDefined()
    const deleted = await postForm(hub.app, admin, `${path}/delete`, { confirm: 'yes' })
    expect(deleted.headers.location).toBe('/admin/groups?notice=deleted')
    expect(await groupNamed(name)).toBeUndefined()
    expect((await postForm(hub.app, admin, path, { name: uniqueName() })).headers.location).toBe('/admin/groups?error=noGroup')
  })

  it("refuses a member's form as the pages do (404 for a page, 403 for a form)", async () => {
    const member = await signUpAndLogIn(hub.app)
    const response = await postForm(hub.app, member, '/admin/groups', { name: uniqueName() })
    expect(response.statusCode).toBe(403)
  })

  it('lists the section in the console navigation, in both languages', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    expect((await page(admin, '/admin/groups')).body).toMatch(/<a href="\/admin\/groups" aria-current="page">Groups<\/a>/)
    expect((await page(admin, '/admin/groups', 'es')).body).toMatch(/<a href="\/admin\/groups" aria-current="page">Grupos<\/a>/)
  })
})
