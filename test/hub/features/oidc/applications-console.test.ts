import { describe, expect, it } from 'vitest'
import { hashSecret } from '../../../../src/hub/features/oidc/clients.js'
import { forgetRecentSignIns, postForm, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, cookieHeader, expectStrictPageCsp, pageCookies, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

const SECTION = '/admin/applications'
const CALLBACK = 'https://wiki.example/callback'
const LONG_CALLBACK = `https://photos.example/${'very-long-path-segment/'.repeat(8)}callback`

/** The secret a page shows, if any. */
const secretOn = (html: string) => /data-client-secret[^>]*>([A-Za-z0-9_-]{43})</.exec(html)?.[1]

describe.each(databasesUnderTest())('the console’s Applications section over HTTP, on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: { signupsPerIp: { limit: 1000, windowMs: 60_000 } } })
  const page = (user: SignedIn | undefined, url: string, others: Record<string, string> = {}) => hub.app.inject({ url, headers: user ? pageCookies(user, others) : {} })
  const clientRow = (id: string) => hub.handle.db.selectFrom('oidcClients').selectAll().where('id', '=', id).executeTakeFirst()
  /** A form posted as a browser without script would, with the page in Spanish. */
  const postFormInSpanish = (user: SignedIn, url: string, fields: Record<string, string>) =>
    hub.app.inject({
      method: 'POST',
      url,
      headers: {
        cookie: cookieHeader({ 'service-auth-token': user.authCookie, 'service-csrf-token': user.csrfToken, lang: 'es' }),
        'content-type': 'application/x-www-form-urlencoded'
      },
      payload: new URLSearchParams({ ...fields, _csrf: user.csrfToken }).toString()
    })

  it('shows an administrator the section, listed in the console’s navigation, under the strict CSP; anyone else finds nothing there', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await postForm(hub.app, admin, SECTION, { clientId: 'listed', name: 'Listed app', redirectUris: `${CALLBACK}\n${LONG_CALLBACK}` })
    const shown = await page(admin, SECTION)
    expect(shown.statusCode).toBe(200)
    expect(shown.headers['cache-control']).toBe('no-store')
    expectStrictPageCsp(shown, SECTION)
    expect(shown.body).toMatch(/<a href="\/admin\/applications" aria-current="page">Applications<\/a>/)
    expect(shown.body).toContain('<a href="/admin/applications/listed">Listed app</a>')
    // Each URI wraps anywhere (`.secret`), so a long callback never widens a phone's page.
    expect(shown.body).toContain(`<li class="secret">${LONG_CALLBACK}</li>`)
    expect(shown.body).toContain('name="_csrf"')
    expect((await page(admin, SECTION, { lang: 'es' })).body).toContain('Añadir una aplicación')

    const member = await signUpAndLogIn(hub.app)
    for (const url of [SECTION, `${SECTION}/listed`, `${SECTION}/listed/remove`]) {
      expect((await page(member, url)).statusCode, url).toBe(404)
      const signedOut = await page(undefined, url)
      expect(signedOut.statusCode, url).toBe(303)
      expect(signedOut.headers.location).toBe(`/login?next=${encodeURIComponent(url)}`)
    }
    expect((await page(admin, `${SECTION}/nobody`)).statusCode).toBe(404)
    expect((await page(admin, `${SECTION}/nobody/remove`)).statusCode).toBe(404)
  })

  it('adds a confidential application and shows its secret once, in the answer to the form, never in a URL', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const added = await postForm(hub.app, admin, SECTION, { name: 'Wiki', clientId: 'wiki', redirectUris: `${CALLBACK}\r\n\r\n https://wiki.example/second \n`, kind: 'confidential' })
    expect(added.statusCode).toBe(200)
    expect(added.headers.location).toBeUndefined()
    expect(added.headers['cache-control']).toBe('no-store')
    expectStrictPageCsp(added, SECTION)
    const secret = secretOn(added.body) ?? ''
    expect(secret).not.toBe('')
    expect(added.body).toContain('It is shown only this once')
    expect(added.body).toContain('http://localhost:3001')
    const row = await clientRow('wiki')
    expect(row).toMatchObject({ name: 'Wiki', secretHash: hashSecret(secret), firstParty: 0 })
    expect(JSON.parse(row?.redirectUris ?? '')).toEqual([CALLBACK, 'https://wiki.example/second'])

    for (const url of [SECTION, `${SECTION}/wiki`]) expect((await page(admin, url)).body, url).not.toContain(secret)
    const events = await hub.handle.db.selectFrom('auditEvents').select(['type', 'detail']).where('userId', '=', admin.userId).execute()
    expect(events.filter((event) => event.type === 'client.added')).toEqual([{ type: 'client.added', detail: JSON.stringify({ clientId: 'wiki', name: 'Wiki' }) }])
    expect(JSON.stringify(events)).not.toContain(secret)
  })

  it('adds a public first-party application without a secret, then says so on its page', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const added = await postForm(hub.app, admin, SECTION, { name: '', clientId: 'family-spa', redirectUris: 'http://localhost:8080/cb', kind: 'public', firstParty: 'yes' })
    expect(added.statusCode).toBe(303)
    expect(added.headers.location).toBe(`${SECTION}/family-spa?notice=added`)
    expect(await clientRow('family-spa')).toMatchObject({ name: 'family-spa', secretHash: null, firstParty: 1 })
    const shown = await page(admin, `${SECTION}/family-spa?notice=added`)
    expect(shown.body).toContain('The application was added.')
    expect(shown.body).toContain('Public, first party')
    expect(shown.body).toContain('A public application has no secret')
    expect(shown.body).not.toContain(`action="${SECTION}/family-spa/secret"`)
  })

  it('shows a refused form again with what was typed and the reason in the page’s language: 400, or 409 for an id taken', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const refused = await postFormInSpanish(admin, SECTION, { name: 'Mi wiki', clientId: 'refused', redirectUris: 'javascript:alert(1)' })
    expect(refused.statusCode).toBe(400)
    expect(refused.headers['content-type']).toMatch(/^text\/html/)
    expect(refused.body).toContain('No es una dirección http(s) sin fragmento, de como mucho 2000 caracteres: javascript:alert(1)')
    expect(refused.body).toContain('value="Mi wiki"')
    expect(refused.body).toContain('value="refused"')
    expect(await clientRow('refused')).toBeUndefined()

    const badId = await postForm(hub.app, admin, SECTION, { clientId: 'Bad Id', redirectUris: CALLBACK })
    expect(badId.statusCode).toBe(400)
    expect(badId.body).toContain('The client id must be 1 to 59 characters')
    const noUri = await postForm(hub.app, admin, SECTION, { clientId: 'no-uri', redirectUris: ' \n ' })
    expect(noUri.statusCode).toBe(400)
    expect(noUri.body).toContain('Give at least one redirect URI.')

    await postForm(hub.app, admin, SECTION, { clientId: 'taken', redirectUris: CALLBACK, kind: 'public' })
    const taken = await postForm(hub.app, admin, SECTION, { clientId: 'taken', redirectUris: CALLBACK, kind: 'public' })
    expect(taken.statusCode).toBe(409)
    expect(taken.body).toContain('An application with the client id taken already exists.')
  })

  it('changes an application’s redirect URIs and settings, then leads back with a notice; a refused change keeps what was typed', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await postForm(hub.app, admin, SECTION, { clientId: 'edited', name: 'Edited', redirectUris: CALLBACK })
    const fields = { name: 'Edited app', redirectUris: `${CALLBACK}\nhttps://wiki.example/new`, postLogoutRedirectUris: 'https://wiki.example/', backchannelLogoutUri: '', firstParty: 'yes' }
    const changed = await postForm(hub.app, admin, `${SECTION}/edited`, fields)
    expect(changed.statusCode).toBe(303)
    expect(changed.headers.location).toBe(`${SECTION}/edited?notice=changed`)
    const row = await clientRow('edited')
    expect(row).toMatchObject({ name: 'Edited app', firstParty: 1, backchannelLogoutUri: null })
    expect(JSON.parse(row?.redirectUris ?? '')).toEqual([CALLBACK, 'https://wiki.example/new'])
    expect(JSON.parse(row?.postLogoutRedirectUris ?? '')).toEqual(['https://wiki.example/'])
    expect((await page(admin, `${SECTION}/edited?notice=changed`)).body).toContain('The changes were saved.')

    const refused = await postForm(hub.app, admin, `${SECTION}/edited`, { ...fields, redirectUris: 'https://wiki.example/cb#fragment' })
    expect(refused.statusCode).toBe(400)
    expect(refused.body).toContain('https://wiki.example/cb#fragment</textarea>')
    expect(refused.body).toContain('Not an http(s) address without a fragment')
    expect((await postForm(hub.app, admin, `${SECTION}/nobody`, fields)).statusCode).toBe(404)
  })

  it('replaces a secret, shown once in the answer, and refuses to for a public application (409)', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const first = secretOn((await postForm(hub.app, admin, SECTION, { clientId: 'rotated', redirectUris: CALLBACK })).body)
    const rotated = await postForm(hub.app, admin, `${SECTION}/rotated/secret`, {})
    expect(rotated.statusCode).toBe(200)
    expect(rotated.headers['cache-control']).toBe('no-store')
    expect(rotated.body).toContain('The old secret has stopped working.')
    const secret = secretOn(rotated.body) ?? ''
    expect(secret).not.toBe(first)
    expect((await clientRow('rotated'))?.secretHash).toBe(hashSecret(secret))

    await postForm(hub.app, admin, SECTION, { clientId: 'public-one', redirectUris: CALLBACK, kind: 'public' })
    const refused = await postForm(hub.app, admin, `${SECTION}/public-one/secret`, {})
    expect(refused.statusCode).toBe(409)
    expect(refused.body).toContain('A public application has no secret to replace.')
    expect((await postForm(hub.app, admin, `${SECTION}/nobody/secret`, {})).statusCode).toBe(404)
  })

  it('asks to confirm a removal on its own page, then removes the application with its grants', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await postForm(hub.app, admin, SECTION, { clientId: 'leaving', name: 'Leaving', redirectUris: CALLBACK })
    const confirm = await page(admin, `${SECTION}/leaving/remove`)
    expect(confirm.statusCode).toBe(200)
    expect(confirm.body).toContain('Remove Leaving?')
    expect(confirm.body).toContain(`action="${SECTION}/leaving/remove"`)
    expect(await clientRow('leaving')).toBeDefined()

    const removed = await postForm(hub.app, admin, `${SECTION}/leaving/remove`, {})
    expect(removed.statusCode).toBe(303)
    expect(removed.headers.location).toBe(`${SECTION}?notice=removed`)
    expect(await clientRow('leaving')).toBeUndefined()
    expect((await page(admin, `${SECTION}?notice=removed`)).body).toContain('The application was removed, with its grants and tokens.')
    expect((await postForm(hub.app, admin, `${SECTION}/leaving/remove`, {})).statusCode).toBe(404)
  })

  it('refuses a form without its _csrf field or with another’s, a member’s (403) and nobody’s (401)', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const fields = { clientId: 'forged', redirectUris: CALLBACK }
    expect((await postForm(hub.app, admin, SECTION, fields, '')).statusCode).toBe(403)
    expect((await postForm(hub.app, admin, SECTION, fields, 'not-the-token')).statusCode).toBe(403)
    const member = await signUpAndLogIn(hub.app)
    expect((await postForm(hub.app, member, SECTION, fields)).statusCode).toBe(403)
    expect((await postForm(hub.app, admin, SECTION, fields, member.csrfToken)).statusCode).toBe(403)
    const nobody = await hub.app.inject({ method: 'POST', url: SECTION, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'clientId=forged' })
    expect(nobody.statusCode).toBe(401)
    expect(await clientRow('forged')).toBeUndefined()
  })

  it('sends an administrator without a recent sign-in to confirm, coming back to the page, and changes nothing', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await postForm(hub.app, admin, SECTION, { clientId: 'kept', redirectUris: CALLBACK })
    await forgetRecentSignIns(hub.handle.db)
    const cases: [string, Record<string, string>, string][] = [
      [SECTION, { clientId: 'unconfirmed', redirectUris: CALLBACK }, SECTION],
      [`${SECTION}/kept`, { name: 'Changed', redirectUris: CALLBACK }, `${SECTION}/kept`],
      [`${SECTION}/kept/secret`, {}, `${SECTION}/kept`],
      [`${SECTION}/kept/remove`, {}, `${SECTION}/kept/remove`]
    ]
    const before = await clientRow('kept')
    for (const [url, fields, back] of cases) {
      const sent = await postForm(hub.app, admin, url, fields)
      expect(sent.statusCode, url).toBe(303)
      expect(sent.headers.location, url).toBe(`/admin/confirm?next=${encodeURIComponent(back)}`)
    }
    expect(await clientRow('kept')).toEqual(before)
    expect(await clientRow('unconfirmed')).toBeUndefined()
  })
})
