import { describe, expect, it } from 'vitest'
import { forgetRecentSignIns, postForm, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, buildTestHubApp, expectStrictPageCsp, pageCookies, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'

const MANY_SIGN_UPS = { signupsPerIp: { limit: 10_000, windowMs: 60_000 } }
let groupCount = 0

describe.each(databasesUnderTest())("the console's invitations and the /invite page on $name", (database) => {
  const hub = useHubApp(database, { rateLimits: MANY_SIGN_UPS })

  const page = (user: SignedIn | null, url: string, lang = 'en') =>
    hub.app.inject({ method: 'GET', url, headers: user ? pageCookies(user, { lang }) : { cookie: `lang=${lang}` } })
  const invitationsTo = (email: string) => hub.handle.db.selectFrom('invitations').selectAll().where('email', '=', email).execute()

  it('shows the form with every group and the pending invitations to an administrator, in English and Spanish; 404 for a member', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const name = `Kids ${process.pid} ${++groupCount}`
    await hub.app.inject({ method: 'POST', url: '/api/admin/groups', headers: admin.headers, payload: { name } })
    const en = await page(admin, '/admin/invitations')
    expect(en.statusCode).toBe(200)
    expect(en.body).toContain('Invite someone')
    expect(en.body).toContain(`<input type="checkbox" name="groups" value="${name}"/>`)
    // Without HUB_SMTP_URL the mail goes to the outbox: the page says where to read it.
    expect(en.body).toContain('npm run hub -- mail:outbox')
    expectStrictPageCsp(en, '/admin/invitations')
    expect((await page(admin, '/admin/invitations', 'es')).body).toContain('Invitar a alguien')
    const member = await signUpAndLogIn(hub.app)
    expect((await page(member, '/admin/invitations')).statusCode).toBe(404)
  })

  it('sends an invitation from a form without script, with the groups ticked, lists it, and withdraws it', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const name = `Parents ${process.pid} ${++groupCount}`
    const group = (await hub.app.inject({ method: 'POST', url: '/api/admin/groups', headers: admin.headers, payload: { name } })).json<{ id: string }>()
    const email = uniqueEmail('console')
    const sent = await postForm(hub.app, admin, '/admin/invitations', { email, groups: [name], language: 'es' })
    expect(sent.statusCode).toBe(303)
    expect(sent.headers.location).toBe('/admin/invitations?notice=sent')
    const [invitation] = await invitationsTo(email)
    expect(JSON.parse(invitation?.groupIds ?? '[]')).toEqual([group.id])
    const mail = await hub.handle.db.selectFrom('mailQueue').select(['subject', 'textBody']).where('recipient', '=', email).executeTakeFirstOrThrow()
    expect(mail.subject).toBe('Te invitan a crear una cuenta de Hearth')
    const listed = await page(admin, '/admin/invitations?notice=sent')
    expect(listed.body).toContain('The invitation was sent.')
    expect(listed.body).toContain(email)
    // The link is never shown on the page.
    expect(listed.body).not.toContain('/invite#token=')

    const withdrawn = await postForm(hub.app, admin, `/admin/invitations/${invitation?.id}/withdraw`, {})
    expect(withdrawn.headers.location).toBe('/admin/invitations?notice=withdrawn')
    expect((await invitationsTo(email))[0]?.withdrawnAt).not.toBeNull()
    const again = await postForm(hub.app, admin, `/admin/invitations/${invitation?.id}/withdraw`, {})
    expect(again.headers.location).toBe('/admin/invitations?error=noPending')
    expect((await page(admin, '/admin/invitations?error=noPending', 'es')).body).toContain('Esta invitación ya no está pendiente.')
  })

  it("says why it refused an invitation, in the page's words", async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    expect((await postForm(hub.app, admin, '/admin/invitations', { email: admin.email })).headers.location).toBe('/admin/invitations?error=hasAccount')
    expect((await postForm(hub.app, admin, '/admin/invitations', { email: 'nope' })).headers.location).toBe('/admin/invitations?error=email')
    expect((await postForm(hub.app, admin, '/admin/invitations', { email: uniqueEmail(), groups: 'gone' })).headers.location).toBe('/admin/invitations?error=group')
    expect((await page(admin, '/admin/invitations?error=hasAccount')).body).toContain('This address already has an account.')
  })

  it('refuses a form without its _csrf field (403), and sends an administrator without a recent sign-in to confirm it', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const email = uniqueEmail('stale')
    expect((await postForm(hub.app, admin, '/admin/invitations', { email }, '')).statusCode).toBe(403)
    await forgetRecentSignIns(hub.handle.db)
    const stale = await postForm(hub.app, admin, '/admin/invitations', { email })
    expect(stale.statusCode).toBe(303)
    expect(stale.headers.location).toBe(`/admin/confirm?next=${encodeURIComponent('/admin/invitations')}`)
    expect(await invitationsTo(email)).toEqual([])
  })

  it('says invitations are refused while HUB_SIGNUP is closed, and offers no form', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const closed = await buildTestHubApp(hub.handle, { config: { signup: 'closed' } })
    try {
      const shown = await closed.inject({ method: 'GET', url: '/admin/invitations', headers: pageCookies(admin, { lang: 'en' }) })
      expect(shown.body).toContain('HUB_SIGNUP=closed')
      expect(shown.body).not.toContain('Invite someone')
    } finally {
      await closed.close()
    }
  })

  it('serves the /invite page signed out, in English and Spanish: the script takes the token from the fragment', async () => {
    const en = await page(null, '/invite')
    expect(en.statusCode).toBe(200)
    expect(en.body).toContain('Make your account')
    expect(en.body).toContain('data-form="accept-invitation"')
    expect(en.body).toContain('data-link-token="invitation"')
    expectStrictPageCsp(en, '/invite')
    expect((await page(null, '/invite', 'es')).body).toContain('Crea tu cuenta')
  })
})
