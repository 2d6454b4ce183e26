import { describe, expect, it } from 'vitest'
import { postForm, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { pageCookies, uniqueEmail } from '../../../helpers/hub-app.js'
import { CookieBrowser, authorizationRequest, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'

const LOGO = 'https://photos.example/static/logo.png'
const STRICT_IMG_SRC = "img-src 'self' data:;"

describe.each(databasesUnderTest())('applications’ names and logos, on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database, { rateLimits: { signupsPerIp: { limit: 1000, windowMs: 60_000 } } })

  it('shows the logo on the consent page, allowed by that page’s CSP alone and by its exact address, and on /account once connected', async () => {
    await registerClient(hub.handle, { id: 'photos', name: 'Family photos', logoUrl: `${LOGO}?v=2` })
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('logo'))
    const config = await relyingParty(hub.issuer, 'photos', 'unused')
    const { page } = await browser.follow((await authorizationRequest(config)).url.href)
    expect(page?.html).toContain(`<img class="application-logo" src="${LOGO}?v=2" alt="Logo of Family photos" width="64" height="64"`)
    const policy = page?.headers.get('content-security-policy') ?? ''
    expect(policy).toContain(`img-src 'self' data: ${LOGO};`)
    expect(policy).toContain("default-src 'self';")
    expect(policy).toContain("object-src 'none'")

    // Every other page keeps the strict policy.
    const home = await browser.request(`${hub.issuer}/account`)
    expect(home.headers.get('content-security-policy')).toContain(STRICT_IMG_SRC)

    const action = /action="([^"]+\/consent)"/.exec(page?.html ?? '')?.[1] ?? ''
    await browser.postForm(new URL(action, hub.issuer).href, { decision: 'allow' })
    const account = await browser.request(`${hub.issuer}/account`)
    const html = await account.text()
    expect(html).toContain(`src="${LOGO}?v=2" alt="Logo of Family photos"`)
    expect(account.headers.get('content-security-policy')).toContain(`img-src 'self' data: ${LOGO};`)
  })

  it('shows no image and keeps the strict policy for an application without a logo', async () => {
    await registerClient(hub.handle, { id: 'no-logo', name: 'No logo' })
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('logo'))
    const { page } = await browser.follow((await authorizationRequest(await relyingParty(hub.issuer, 'no-logo', 'unused'))).url.href)
    expect(page?.html).toContain('Allow No logo to sign you in?')
    expect(page?.html).not.toContain('<img')
    expect(page?.headers.get('content-security-policy')).toContain(STRICT_IMG_SRC)
  })

  it('adds and changes the settings from the console’s forms, and shows the logo there', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const added = await postForm(hub.app, admin, '/admin/applications', {
      name: 'Nextcloud',
      clientId: 'nextcloud',
      redirectUris: 'https://cloud.example/apps/user_oidc/code',
      kind: 'confidential',
      logoUrl: 'https://cloud.example/logo.svg',
      idTokenAlg: 'RS256',
      pkce: 'optional',
      authMethod: 'client_secret_post'
    })
    expect(added.statusCode).toBe(200)
    const row = () => hub.handle.db.selectFrom('oidcClients').selectAll().where('id', '=', 'nextcloud').executeTakeFirstOrThrow()
    expect(await row()).toMatchObject({ idTokenAlg: 'RS256', pkce: 'optional', authMethod: 'client_secret_post', logoUrl: 'https://cloud.example/logo.svg' })

    const pageOf = (url: string) => hub.app.inject({ url, headers: pageCookies(admin) })
    for (const url of ['/admin/applications', '/admin/applications/nextcloud']) {
      const shown = await pageOf(url)
      expect(shown.body).toContain('src="https://cloud.example/logo.svg" alt="Logo of Nextcloud"')
      expect(shown.headers['content-security-policy']).toMatch(/img-src 'self' data: [^;]*https:\/\/cloud\.example\/logo\.svg[ ;]/)
    }
    // One application's page allows its own logo only.
    expect((await pageOf('/admin/applications/nextcloud')).headers['content-security-policy']).toContain("img-src 'self' data: https://cloud.example/logo.svg;")
    expect((await pageOf('/admin/applications/nextcloud')).body).toContain('client_secret_post')

    const changed = await postForm(hub.app, admin, '/admin/applications/nextcloud', {
      name: 'Nextcloud',
      redirectUris: 'https://cloud.example/apps/user_oidc/code',
      logoUrl: '',
      idTokenAlg: 'ES256',
      pkce: 'required',
      authMethod: 'client_secret_basic'
    })
    expect(changed.statusCode).toBe(303)
    expect(await row()).toMatchObject({ idTokenAlg: 'ES256', pkce: 'required', authMethod: 'client_secret_basic', logoUrl: null })
  })

  it('adds a native application from the console, and refuses a private-use scheme on a confidential one in the page’s language', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const native = await postForm(hub.app, admin, '/admin/applications', {
      clientId: 'immich-phone',
      redirectUris: 'app.immich:///oauth-callback\nhttp://127.0.0.1/callback',
      kind: 'public',
      idTokenAlg: 'RS256',
      pkce: 'required',
      authMethod: 'client_secret_basic'
    })
    expect(native.statusCode).toBe(303)
    const refused = await postForm(hub.app, admin, '/admin/applications', { clientId: 'server-app', redirectUris: 'app.immich:///oauth-callback', kind: 'confidential' })
    expect(refused.statusCode).toBe(400)
    expect(refused.body).toContain('A private-use scheme such as app.immich:///oauth-callback is for phone and desktop applications')
  })
})
