import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import * as openid from 'openid-client'
import { beforeAll, describe, expect, it } from 'vitest'
import { createOidcClients } from '../../../../src/hub/features/oidc/clients.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { uniqueEmail } from '../../../helpers/hub-app.js'
import { CookieBrowser, authorizationRequest, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'

const IMMICH_CALLBACK = 'app.immich:///oauth-callback'

describe.each(databasesUnderTest())('OpenID Connect clients as real applications are, with openid-client, on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database)
  const browser = () => new CookieBrowser(hub.issuer)
  let signedIn: CookieBrowser
  let userId: string

  beforeAll(async () => {
    signedIn = browser()
    userId = await signedIn.signUpAndIn(uniqueEmail('clients'))
  })

  /** The authorization request to the redirect back (or the page the hub stopped on). */
  const authorize = async (config: openid.Configuration, options: { pkce?: boolean; redirectUri?: string } = {}) => {
    const request = await authorizationRequest(config, 'openid email profile', options)
    const { left, page } = await signedIn.follow(request.url.href)
    return { request, left, page }
  }
  const codeFlow = async (config: openid.Configuration, options: { pkce?: boolean; redirectUri?: string } = {}) => {
    const { request, left, page } = await authorize(config, options)
    expect(left, page?.html).toBeDefined()
    return openid.authorizationCodeGrant(config, left as URL, request.checks)
  }
  const jwks = async () => (await (await fetch(`${hub.issuer}/.well-known/jwks.json`)).json()) as { keys: { kid: string; kty: string; alg: string }[] }

  it('lists every algorithm in discovery, and publishes a key of each', async () => {
    await registerClient(hub.handle, { id: 'default-alg', firstParty: true })
    const metadata = (await relyingParty(hub.issuer, 'default-alg', null)).serverMetadata()
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['EdDSA', 'RS256', 'ES256'])
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']))
    expect((await jwks()).keys.map((key) => key.alg)).toEqual(['EdDSA', 'RS256', 'ES256'])
  })

  it('signs a client’s ID tokens with EdDSA unless it asks for another algorithm', async () => {
    const secret = await registerClient(hub.handle, { id: 'eddsa-app', firstParty: true })
    const tokens = await codeFlow(await relyingParty(hub.issuer, 'eddsa-app', secret))
    const [edKey] = (await jwks()).keys
    expect(decodeProtectedHeader(tokens.id_token ?? '')).toMatchObject({ alg: 'EdDSA', kid: edKey?.kid })
  })

  it.each(['RS256', 'ES256'] as const)('signs the ID tokens of a client registered for %s with it, verifiable against the JWKS', async (alg) => {
    const id = `${alg.toLowerCase()}-app`
    const secret = await registerClient(hub.handle, { id, firstParty: true, idTokenAlg: alg })
    // The application states the algorithm it expects, as Immich states RS256: openid-client refuses any other.
    const config = await relyingParty(hub.issuer, id, secret, { metadata: { id_token_signed_response_alg: alg } })
    const tokens = await codeFlow(config)
    const header = decodeProtectedHeader(tokens.id_token ?? '')
    const published = await jwks()
    expect(header.alg).toBe(alg)
    expect(published.keys.find((key) => key.kid === header.kid)).toMatchObject({ alg, kty: alg === 'RS256' ? 'RSA' : 'EC' })
    const { payload } = await jwtVerify(tokens.id_token ?? '', createLocalJWKSet(published as Parameters<typeof createLocalJWKSet>[0]), {
      issuer: hub.issuer,
      audience: id,
      algorithms: [alg]
    })
    expect(payload.sub).toBe(userId)
    // userinfo stays plain JSON, whatever the ID tokens are signed with.
    expect(await openid.fetchUserInfo(config, tokens.access_token, userId)).toMatchObject({ sub: userId })
    // A refresh signs the new ID token with the same algorithm.
    const refreshed = await openid.refreshTokenGrant(config, tokens.refresh_token ?? '')
    expect(decodeProtectedHeader(refreshed.id_token ?? '').alg).toBe(alg)
  })

  it('changes a client’s algorithm at once when it is updated', async () => {
    const secret = await registerClient(hub.handle, { id: 'changing-alg', firstParty: true })
    await createOidcClients(hub.handle.db).update('changing-alg', { idTokenAlg: 'RS256' })
    const tokens = await codeFlow(await relyingParty(hub.issuer, 'changing-alg', secret, { metadata: { id_token_signed_response_alg: 'RS256' } }))
    expect(decodeProtectedHeader(tokens.id_token ?? '').alg).toBe('RS256')
  })

  describe('PKCE', () => {
    it('lets a confidential client registered with pkce optional sign in without it', async () => {
      const secret = await registerClient(hub.handle, { id: 'no-pkce-app', firstParty: true, pkce: 'optional' })
      const tokens = await codeFlow(await relyingParty(hub.issuer, 'no-pkce-app', secret), { pkce: false })
      expect(tokens.claims()?.sub).toBe(userId)
    })

    it('still checks the PKCE a client with pkce optional sends', async () => {
      const secret = await registerClient(hub.handle, { id: 'some-pkce-app', firstParty: true, pkce: 'optional' })
      const config = await relyingParty(hub.issuer, 'some-pkce-app', secret)
      const { request, left } = await authorize(config)
      await expect(
        openid.authorizationCodeGrant(config, left as URL, { ...request.checks, pkceCodeVerifier: openid.randomPKCECodeVerifier() })
      ).rejects.toMatchObject({ cause: { error: 'invalid_grant' } })
    })

    it.each([
      ['a confidential client with PKCE required (the default)', 'pkce-required-app', false],
      ['a public client', 'pkce-public-app', true]
    ])('refuses %s that sends no PKCE, with an error to the application', async (_case, id, isPublic) => {
      const secret = await registerClient(hub.handle, { id, firstParty: true, public: isPublic })
      const { left } = await authorize(await relyingParty(hub.issuer, id, secret), { pkce: false })
      expect(left?.searchParams.get('error')).toBe('invalid_request')
      expect(left?.searchParams.get('error_description')).toMatch(/PKCE/)
      expect(left?.searchParams.has('code')).toBe(false)
    })
  })

  describe('token endpoint authentication', () => {
    it('takes the secret in the body from a client registered for client_secret_post, and refuses it in a Basic header', async () => {
      const secret = (await registerClient(hub.handle, { id: 'post-app', firstParty: true, authMethod: 'client_secret_post' })) ?? ''
      const posting = await relyingParty(hub.issuer, 'post-app', secret, { auth: openid.ClientSecretPost(secret) })
      expect((await codeFlow(posting)).claims()?.sub).toBe(userId)

      const basic = await relyingParty(hub.issuer, 'post-app', secret, { auth: openid.ClientSecretBasic(secret) })
      const { request, left } = await authorize(basic)
      // Refused in a Basic header, the hub answers with a WWW-Authenticate challenge.
      await expect(openid.authorizationCodeGrant(basic, left as URL, request.checks)).rejects.toMatchObject({
        status: 401,
        cause: [{ parameters: { error: 'invalid_client' } }]
      })
    })

    it('refuses the secret in the body from a client registered for client_secret_basic (the default)', async () => {
      const secret = (await registerClient(hub.handle, { id: 'basic-app', firstParty: true })) ?? ''
      const posting = await relyingParty(hub.issuer, 'basic-app', secret, { auth: openid.ClientSecretPost(secret) })
      const { request, left } = await authorize(posting)
      await expect(openid.authorizationCodeGrant(posting, left as URL, request.checks)).rejects.toMatchObject({ status: 401, cause: { error: 'invalid_client' } })
    })
  })

  describe('native applications (RFC 8252)', () => {
    beforeAll(async () => {
      await registerClient(hub.handle, {
        id: 'immich-mobile',
        name: 'Immich',
        public: true,
        firstParty: true,
        idTokenAlg: 'RS256',
        redirectUris: [IMMICH_CALLBACK, 'http://127.0.0.1/callback', 'http://[::1]/callback'],
        postLogoutRedirectUris: []
      })
    })
    const immich = () => relyingParty(hub.issuer, 'immich-mobile', null, { metadata: { id_token_signed_response_alg: 'RS256' } })

    it('completes the flow to a private-use URI scheme', async () => {
      const { request, left } = await authorize(await immich(), { redirectUri: IMMICH_CALLBACK })
      expect(left?.protocol).toBe('app.immich:')
      expect(left?.searchParams.get('code')).toBeTruthy()
      const tokens = await openid.authorizationCodeGrant(await immich(), left as URL, request.checks)
      expect(tokens.claims()?.sub).toBe(userId)
    })

    it.each(['127.0.0.1', '[::1]'])('completes the flow to a loopback redirect on %s on whatever port the application listens on', async (host) => {
      const port = 49152 + Math.floor(Math.random() * 16000)
      const redirectUri = `http://${host}:${port}/callback`
      const { request, left } = await authorize(await immich(), { redirectUri })
      expect(`${left?.origin}${left?.pathname}`).toBe(redirectUri)
      const tokens = await openid.authorizationCodeGrant(await immich(), left as URL, request.checks)
      expect(tokens.claims()?.sub).toBe(userId)
    })

    it('accepts no other path, scheme or host than the registered ones', async () => {
      for (const redirectUri of ['http://127.0.0.1:8080/elsewhere', 'app.immich:///other', 'http://192.168.1.2:8080/callback']) {
        const { left, page } = await authorize(await immich(), { redirectUri })
        expect(left, redirectUri).toBeUndefined()
        expect(page?.status).toBe(400)
      }
    })

    it('matches a web client’s loopback redirect exactly, port included', async () => {
      await registerClient(hub.handle, { id: 'web-loopback', firstParty: true, public: true, redirectUris: ['http://127.0.0.1:8080/callback', 'http://nas.lan/callback'] })
      const config = await relyingParty(hub.issuer, 'web-loopback', null)
      expect((await authorize(config, { redirectUri: 'http://127.0.0.1:8080/callback' })).left).toBeDefined()
      expect((await authorize(config, { redirectUri: 'http://127.0.0.1:8081/callback' })).page?.status).toBe(400)
    })
  })
})
