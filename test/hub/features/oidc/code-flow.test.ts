import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import * as openid from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eraseAccount } from '../../../../src/hub/erasure.js'
import { createOidcClients } from '../../../../src/hub/features/oidc/clients.js'
import { INTERACTION_NOT_FOUND, UNKNOWN_CLIENT } from '../../../../src/hub/features/oidc/routes.js'
import { createSecurityEventOutbox } from '../../../../src/hub/kernel/security-events/outbox.js'
import { rotateSigningKeys } from '../../../../src/hub/kernel/tokens/keyring.js'
import { setAccountDisabled } from '../../../../src/hub/kernel/accounts/account-status.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { uniqueEmail } from '../../../helpers/hub-app.js'
import {
  CookieBrowser,
  RP_CALLBACK,
  RP_LOGGED_OUT,
  authorizationRequest,
  registerClient,
  relyingParty,
  startBackchannelReceiver,
  useHubOnPort
} from '../../../helpers/oidc-relying-party.js'

describe.each(databasesUnderTest())('OpenID Connect provider, code flow with openid-client, on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database)
  let receiver: Awaited<ReturnType<typeof startBackchannelReceiver>>
  let firstParty: openid.Configuration
  let thirdParty: openid.Configuration

  beforeAll(async () => {
    receiver = await startBackchannelReceiver()
    const secret = await registerClient(hub.handle, { id: 'family-wiki', name: 'Family wiki', firstParty: true, backchannelLogoutUri: receiver.url })
    firstParty = await relyingParty(hub.issuer, 'family-wiki', secret)
    await registerClient(hub.handle, { id: 'photo-album', name: 'Photo album', public: true })
    thirdParty = await relyingParty(hub.issuer, 'photo-album', null)
  })
  afterAll(() => receiver?.close())

  /** A signed-in person's browser going through an authorization request to the callback. */
  const signInThrough = async (config: openid.Configuration, browser: CookieBrowser, scope?: string) => {
    const request = await authorizationRequest(config, scope)
    const { left, page } = await browser.follow(request.url.href)
    return { request, left, page }
  }
  /** The whole flow to tokens; `onPage` answers a page the hub shows on the way (consent). */
  const codeFlow = async (config: openid.Configuration, browser: CookieBrowser, onPage?: (page: { html: string }) => Promise<{ left?: URL }>) => {
    const { request, left, page } = await signInThrough(config, browser)
    const callback = page && onPage ? (await onPage(page)).left : left
    expect(callback, page?.html).toBeDefined()
    return openid.authorizationCodeGrant(config, callback as URL, request.checks)
  }

  it('publishes discovery: the hub as issuer, the code flow with S256 only, the hub’s JWKS', async () => {
    const metadata = firstParty.serverMetadata()
    expect(metadata.issuer).toBe(hub.issuer)
    expect(metadata.jwks_uri).toBe(`${hub.issuer}/.well-known/jwks.json`)
    expect(metadata.response_types_supported).toEqual(['code'])
    expect(metadata.code_challenge_methods_supported).toEqual(['S256'])
    expect(metadata.grant_types_supported).not.toContain('implicit')
    expect(metadata.grant_types_supported).not.toContain('password')
    expect(metadata.end_session_endpoint).toBe(`${hub.issuer}/oidc/session/end`)
    expect(metadata.revocation_endpoint).toBeDefined()
    expect(metadata.introspection_endpoint).toBeDefined()
    expect(metadata.backchannel_logout_supported).toBe(true)
    expect(metadata.pushed_authorization_request_endpoint).toBe(`${hub.issuer}/oidc/request`)

    // The pipeline's answer, replayed (kernel/pipeline/fixed-documents.ts): a JSON document's security headers and its own request id, not cached.
    const discovery = await fetch(`${hub.issuer}/.well-known/openid-configuration`)
    expect(discovery.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(discovery.headers.get('x-content-type-options')).toBe('nosniff')
    expect(discovery.headers.get('x-request-id')).toBeTruthy()
    expect(discovery.headers.get('cache-control')).toBe('no-store')
  })

  it('signs a person already signed in at the hub in to a first-party client without asking, with a valid ID token', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const email = uniqueEmail('oidc')
    const userId = await browser.signUpAndIn(email)
    const tokens = await codeFlow(firstParty, browser)

    // openid-client has checked signature, issuer, audience, nonce and expiry; the key is the hub's.
    const claims = tokens.claims()
    expect(claims?.sub).toBe(userId)
    const jwks = (await (await fetch(`${hub.issuer}/.well-known/jwks.json`)).json()) as Parameters<typeof createLocalJWKSet>[0]
    await expect(jwtVerify(tokens.id_token ?? '', createLocalJWKSet(jwks), { issuer: hub.issuer, audience: 'family-wiki' })).resolves.toBeDefined()

    const userinfo = await openid.fetchUserInfo(firstParty, tokens.access_token, userId)
    expect(userinfo).toMatchObject({ sub: userId, email, email_verified: false })
    // A private profile (the default) gives no name, even with scope profile.
    expect(userinfo.name).toBeUndefined()
  })

  it('gives the name with scope profile only when the person’s profile visibility allows it', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc'))
    await hub.handle.db.updateTable('users').set({ displayName: 'Ada Lovelace' }).where('id', '=', userId).execute()
    const csrf = browser.cookies.get('service-csrf-token') ?? ''
    const shown = await browser.request(`${hub.issuer}/api/privacy/settings`, {
      method: 'PUT',
      body: JSON.stringify({ visibility: { profile: 'family' } }),
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }
    })
    expect(shown.status).toBe(200)
    const tokens = await codeFlow(firstParty, browser)
    expect(await openid.fetchUserInfo(firstParty, tokens.access_token, userId)).toMatchObject({ name: 'Ada Lovelace' })

    const withoutProfile = await signInThrough(firstParty, browser, 'openid email')
    const narrow = await openid.authorizationCodeGrant(firstParty, withoutProfile.left as URL, withoutProfile.request.checks)
    expect((await openid.fetchUserInfo(firstParty, narrow.access_token, userId)).name).toBeUndefined()
  })

  it('refuses a wrong client secret, and another application’s look into a token', async () => {
    const wrongSecret = await relyingParty(hub.issuer, 'family-wiki', 'not-the-secret')
    await expect(openid.refreshTokenGrant(wrongSecret, 'whatever')).rejects.toMatchObject({ status: 401, cause: [{ parameters: { error: 'invalid_client' } }] })

    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const tokens = await codeFlow(firstParty, browser)
    expect(await openid.tokenIntrospection(thirdParty, tokens.access_token)).toEqual({ active: false })
  })

  it('signs ID tokens with the keyring’s new key after keys:rotate, without a restart', async () => {
    const [kid] = await rotateSigningKeys(hub.handle.dataDir, new Date())
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const tokens = await codeFlow(firstParty, browser)
    expect(decodeProtectedHeader(tokens.id_token ?? '').kid).toBe(kid)
  })

  it('answers a path under /oidc that is no endpoint with 404 {error}, as any unknown route', async () => {
    const response = await hub.app.inject({ method: 'POST', url: '/oidc/nothing-here?x=1', payload: { a: 1 } })
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.json()).toEqual({ error: 'Route POST /oidc/nothing-here not found' })
  })

  it('refuses an authorization request without PKCE', async () => {
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const url = openid.buildAuthorizationUrl(firstParty, { redirect_uri: RP_CALLBACK, scope: 'openid', state: 'x' })
    const { left } = await browser.follow(url.href)
    expect(left?.searchParams.get('error')).toBe('invalid_request')
    expect(left?.searchParams.get('error_description')).toBe('Authorization Server policy requires PKCE to be used for this request')
  })

  it('rotates refresh tokens: the new one works, the old one is refused', async () => {
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const tokens = await codeFlow(firstParty, browser)
    const first = tokens.refresh_token ?? ''
    expect(first).not.toBe('')
    const renewed = await openid.refreshTokenGrant(firstParty, first)
    expect(renewed.refresh_token).toBeDefined()
    expect(renewed.refresh_token).not.toBe(first)
    await expect(openid.refreshTokenGrant(firstParty, first)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('revokes an access token, which introspection then calls inactive', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc'))
    const tokens = await codeFlow(firstParty, browser)
    expect(await openid.tokenIntrospection(firstParty, tokens.access_token)).toMatchObject({ active: true, sub: userId, client_id: 'family-wiki' })
    await openid.tokenRevocation(firstParty, tokens.access_token)
    expect(await openid.tokenIntrospection(firstParty, tokens.access_token)).toMatchObject({ active: false })
  })

  it('asks a third-party client’s consent once, lists the scopes, and remembers the answer', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc'))
    const { request, page } = await signInThrough(thirdParty, browser)
    expect(page?.status).toBe(200)
    expect(page?.html).toContain('Allow Photo album to sign you in?')
    expect(page?.html).toContain('Your email address, and whether it is verified')

    // In Spanish too; its one script carries the response's nonce, and its form may lead to the application.
    const spanish = await browser.request(page?.url ?? '', { headers: { 'accept-language': 'es' } })
    const spanishHtml = await spanish.text()
    expect(spanishHtml).toContain('¿Permitir que Photo album te identifique?')
    expect(spanish.headers.get('content-language')).toBe('es')
    const policy = spanish.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("form-action 'self' http://rp.example;")
    const nonce = /nonce="([^"]+)"/.exec(spanishHtml)?.[1] ?? 'none'
    expect(policy).toContain(`'nonce-${nonce}'`)

    const action = /action="([^"]+\/consent)"/.exec(page?.html ?? '')?.[1] ?? ''
    const { left } = await browser.postForm(new URL(action, hub.issuer).href, { decision: 'allow' })
    const tokens = await openid.authorizationCodeGrant(thirdParty, left as URL, request.checks)
    expect(tokens.claims()?.sub).toBe(userId)

    // The decision is in the consent records (and so in the export), and is not asked again.
    const consents = await browser.request(`${hub.issuer}/api/privacy/consent`)
    expect(((await consents.json()) as { current: Record<string, unknown> }).current['oidc:photo-album']).toMatchObject({ granted: true, version: 'openid email profile' })
    const exported = await browser.request(`${hub.issuer}/api/export`, {
      method: 'POST',
      body: JSON.stringify({ format: 'json' }),
      headers: { 'content-type': 'application/json', 'x-csrf-token': browser.cookies.get('service-csrf-token') ?? '' }
    })
    expect(await exported.text()).toContain('oidc:photo-album')
    const again = await signInThrough(thirdParty, browser)
    expect(again.left?.searchParams.get('code')).toBeTruthy()

    // The account lists the application, and disconnecting it ends its tokens.
    const listed = await browser.request(`${hub.issuer}/api/account/applications`)
    expect(await listed.json()).toMatchObject({ applications: [{ clientId: 'photo-album', name: 'Photo album', scopes: ['openid', 'email', 'profile'] }] })
    expect((await fetch(`${hub.issuer}/api/account/applications`)).status).toBe(401)
    expect((await browser.request(`${hub.issuer}/api/account/applications/photo-album`, { method: 'DELETE' })).status).toBe(403)
    const csrf = browser.cookies.get('service-csrf-token') ?? ''
    const disconnected = await browser.request(`${hub.issuer}/api/account/applications/photo-album`, { method: 'DELETE', headers: { 'x-csrf-token': csrf } })
    expect(disconnected.status).toBe(204)
    await expect(openid.fetchUserInfo(thirdParty, tokens.access_token, userId)).rejects.toBeDefined()
    const missing = await browser.request(`${hub.issuer}/api/account/applications/photo-album`, { method: 'DELETE', headers: { 'x-csrf-token': csrf } })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'No connected application has this id' })
  })

  it('sends the application back with access_denied when consent is declined', async () => {
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const { page } = await signInThrough(thirdParty, browser)
    const action = /action="([^"]+\/consent)"/.exec(page?.html ?? '')?.[1] ?? ''
    const { left } = await browser.postForm(new URL(action, hub.issuer).href, { decision: 'deny' })
    expect(left?.searchParams.get('error')).toBe('access_denied')
  })

  it('sends someone not signed in at the hub to its sign-in page, and back to the application after it', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const { page } = await signInThrough(firstParty, browser)
    expect(page?.url).toMatch(/\/login\?next=%2Foidc%2Finteraction%2F/)
    const next = new URL(page?.url ?? '').searchParams.get('next') ?? ''
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const { left } = await browser.follow(next)
    expect(left?.searchParams.get('code')).toBeTruthy()
  })

  it('ends the provider session with the hub session: signed out of the hub, the next request asks to sign in', async () => {
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc'))
    await codeFlow(firstParty, browser)
    const csrf = browser.cookies.get('service-csrf-token') ?? ''
    expect((await browser.request(`${hub.issuer}/api/auth/refresh`, { method: 'DELETE', headers: { 'x-csrf-token': csrf } })).status).toBe(204)
    const { page } = await signInThrough(firstParty, browser)
    expect(page?.url).toMatch(/\/login\?next=/)
  })

  it('asks to sign in, not to start again, when the provider session ends between the authorization request and the sign-in step', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc'))
    await codeFlow(firstParty, browser)
    const csrf = browser.cookies.get('service-csrf-token') ?? ''
    expect((await browser.request(`${hub.issuer}/api/auth/refresh`, { method: 'DELETE', headers: { 'x-csrf-token': csrf } })).status).toBe(204)
    const request = await authorizationRequest(firstParty)
    const toSignInStep = await browser.request(request.url.href)
    const signInStep = toSignInStep.headers.get('location') ?? ''
    expect(signInStep).toMatch(/\/oidc\/interaction\//)
    // What the round that ends the provider sessions of ended hub sessions does, come in between.
    await hub.handle.db.deleteFrom('oidcProviderRecords').where('model', '=', 'Session').where('accountId', '=', userId).execute()
    // Only the browser that started it is sent round again: another is still told to start from the application.
    const stranger = await new CookieBrowser(hub.issuer).request(new URL(signInStep, hub.issuer).href)
    expect([stranger.status, await stranger.json()]).toEqual([400, { error: INTERACTION_NOT_FOUND }])
    const { page } = await browser.follow(signInStep)
    expect(page?.url).toMatch(/\/login\?next=/)
    // Signed in again, the same request from the application carries on to its callback.
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const { left } = await browser.follow(new URL(page?.url ?? '').searchParams.get('next') ?? '')
    expect(left?.searchParams.get('state')).toBe(request.url.searchParams.get('state'))
    expect(left?.searchParams.get('code')).toBeTruthy()
  })

  it('RP-initiated logout ends the hub session, and the back-channel logout reaches the application', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc'))
    const tokens = await codeFlow(firstParty, browser)
    const endSession = openid.buildEndSessionUrl(firstParty, { id_token_hint: tokens.id_token ?? '', post_logout_redirect_uri: RP_LOGGED_OUT, state: 'bye' })
    const { page } = await browser.follow(endSession.href)
    expect(page?.html).toContain('Sign out?')
    expect(page?.headers.get('content-security-policy')).toContain("form-action 'self' http://rp.example;")
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page?.html ?? '')?.[1] ?? ''
    const { left } = await browser.postForm(`${hub.issuer}/oidc/session/end/confirm`, { xsrf, logout: 'yes' })
    expect(left?.href).toBe(`${RP_LOGGED_OUT}?state=bye`)

    expect((await browser.request(`${hub.issuer}/api/account/sessions`)).status).toBe(401)
    const logoutToken = receiver.logoutTokens.map((token) => decodeJwt(token)).find((claims) => claims.sub === userId)
    expect(logoutToken).toMatchObject({ iss: hub.issuer, aud: 'family-wiki', events: { 'http://schemas.openid.net/event/backchannel-logout': {} } })
    expect(typeof logoutToken?.sid).toBe('string')
  })

  it('answers a sign-in step this browser did not start with 400, and a bad consent answer with 400', async () => {
    const stranger = new CookieBrowser(hub.issuer)
    await stranger.signUpAndIn(uniqueEmail('oidc'))
    const unknown = await stranger.request(`${hub.issuer}/oidc/interaction/not-a-real-uid`)
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toEqual({ error: INTERACTION_NOT_FOUND })

    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const { page } = await signInThrough(thirdParty, browser)
    const action = /action="([^"]+\/consent)"/.exec(page?.html ?? '')?.[1] ?? ''
    const { page: refused } = await browser.postForm(new URL(action, hub.issuer).href, { decision: 'maybe' })
    expect(refused?.status).toBe(400)
    expect(JSON.parse(refused?.html ?? '')).toEqual({ error: 'Decision must be one of: allow, deny' })
  })

  it('ends a removed client’s tokens, and its sign-in under way', async () => {
    const secret = await registerClient(hub.handle, { id: 'short-lived' })
    const config = await relyingParty(hub.issuer, 'short-lived', secret)
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc'))
    const tokens = await codeFlow(config, browser, async (page) => {
      const action = /action="([^"]+\/consent)"/.exec(page.html)?.[1] ?? ''
      return browser.postForm(new URL(action, hub.issuer).href, { decision: 'allow' })
    })
    const other = new CookieBrowser(hub.issuer)
    await other.signUpAndIn(uniqueEmail('oidc'))
    const { page } = await other.follow((await authorizationRequest(config)).url.href)
    expect(page?.status).toBe(200)

    expect(await createOidcClients(hub.handle.db).remove('short-lived')).toBe(true)
    const afterRemoval = await other.request(page?.url ?? '')
    expect(afterRemoval.status).toBe(404)
    expect(await afterRemoval.json()).toEqual({ error: UNKNOWN_CLIENT })
    await expect(openid.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toBeDefined()
  })

  it('erases the provider’s records of a deleted account', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const email = uniqueEmail('oidc')
    const userId = await browser.signUpAndIn(email)
    const tokens = await codeFlow(firstParty, browser)
    await eraseAccount({ db: hub.handle.db, outbox: createSecurityEventOutbox(hub.handle.db, []), publicUrl: hub.issuer }, { userId, email, language: 'en' }, new Date())
    const recordsOf = () => hub.handle.db.selectFrom('oidcProviderRecords').select('model').where('accountId', '=', userId).execute()
    // Only the provider session is left, until the hub has sent its back-channel logouts.
    expect((await recordsOf()).every(({ model }) => model === 'Session')).toBe(true)
    await expect.poll(recordsOf, { timeout: 10_000 }).toEqual([])
    await expect(openid.refreshTokenGrant(firstParty, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('logs out a browser holding no provider session through the provider’s self-submitting form, allowed by the CSP', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const endSession = openid.buildEndSessionUrl(firstParty, { client_id: 'family-wiki', post_logout_redirect_uri: RP_LOGGED_OUT })
    const { page } = await browser.follow(endSession.href)
    expect(page?.html).toContain('document.forms[0].submit()')
    const policy = page?.headers.get('content-security-policy') ?? ''
    expect(policy).toMatch(/script-src 'self' 'nonce-[0-9a-f]+' 'sha256-[A-Za-z0-9+/=]+'/)
    expect(policy).toContain("form-action 'self' http://rp.example")
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page?.html ?? '')?.[1] ?? ''
    const { left } = await browser.postForm(`${hub.issuer}/oidc/session/end/confirm`, { xsrf, logout: 'yes' })
    expect(left?.href).toBe(RP_LOGGED_OUT)
  })

  it('keeps the hub’s policy on an error page, whatever redirect_uri the request names', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const { page } = await browser.follow(`${hub.issuer}/oidc/auth?client_id=family-wiki&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&response_type=code&scope=openid`)
    expect(page?.status).toBe(400)
    expect(page?.html).toContain('Sign-in could not continue')
    expect(page?.headers.get('content-security-policy')).toContain("form-action 'self';")
  })

  it('lets a disabled account use no token: refresh, userinfo and introspection refuse it', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const email = uniqueEmail('oidc')
    const userId = await browser.signUpAndIn(email)
    const tokens = await codeFlow(firstParty, browser)
    await setAccountDisabled(hub.handle.db, email, true, new Date())

    await expect(openid.refreshTokenGrant(firstParty, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(openid.fetchUserInfo(firstParty, tokens.access_token, userId)).rejects.toBeDefined()
    expect(await openid.tokenIntrospection(firstParty, tokens.access_token)).toEqual({ active: false })
  })
})
