import { beforeAll, describe, expect, it } from 'vitest'
import { type ApplicationClient, type HouseholdMember, householdMember, recipeCommands, registerByRecipe, signInThrough } from '../../../helpers/app-recipes.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubOnPort } from '../../../helpers/oidc-relying-party.js'

/** A sign-in that went through, or the test fails with why it did not. */
function signedIn<T extends object>(result: T | { refused: string; page: string }): T {
  if ('refused' in result) throw new Error(`The hub refused the sign-in: ${result.refused}`)
  return result
}

const asString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

/**
 * Each recipe of docs/oidc.md ("Recipes: the applications people self-host"): its `clients:add`
 * line, read from the page and run through the hub's command line, then openid-client behaving as
 * that application's own client does (each profile cites where that was read), through the code
 * flow to the claims the application reads, read where it reads them.
 */
describe.each(databasesUnderTest())('recipes for self-hosted applications, on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database)
  let admin: HouseholdMember
  let relative: HouseholdMember

  beforeAll(async () => {
    admin = await householdMember(hub.issuer, hub.handle, ['family', 'admins'])
    relative = await householdMember(hub.issuer, hub.handle, ['family'], 'Grace Hopper')
  })

  it('Grafana: generic OAuth maps the role from groups, read from the ID token, then userinfo', async () => {
    const [command = []] = recipeCommands('Grafana')
    const secret = await registerByRecipe(hub.handle, command)
    // pkg/login/social/connectors/generic_oauth.go: golang.org/x/oauth2 with auth_style = InHeader
    // and use_pkce; the ID token's payload is decoded without a signature check.
    const grafana: ApplicationClient = {
      clientId: 'grafana',
      redirectUri: 'https://grafana.example/login/generic_oauth',
      scope: 'openid email profile groups',
      tokenEndpointAuth: 'client_secret_basic',
      pkce: true,
      nonce: false
    }
    /** role_attribute_path, as JMESPath evaluates it: `contains` of a missing `groups` is an error, so Grafana reads on. */
    const role = (data: Record<string, unknown>) => {
      if (!Array.isArray(data.groups)) return undefined
      return data.groups.includes('admins') ? 'Admin' : data.groups.includes('family') ? 'Editor' : 'Viewer'
    }
    /** UserInfo(): each attribute from the first of the ID token and api_url (userinfo) that has it. */
    const grafanaUser = ({ idToken, userinfo }: { idToken: { claims: Record<string, unknown> }; userinfo: Record<string, unknown> }) => {
      const sources = [idToken.claims, userinfo]
      return {
        email: sources.map((data) => asString(data.email)).find(Boolean),
        name: sources.map((data) => asString(data.name)).find(Boolean),
        role: sources.map(role).find(Boolean) ?? 'Viewer'
      }
    }

    const forAdmin = signedIn(await signInThrough(hub.issuer, grafana, secret, admin.browser))
    expect(grafanaUser(forAdmin)).toEqual({ email: admin.email, name: admin.name, role: 'Admin' })
    const forRelative = signedIn(await signInThrough(hub.issuer, grafana, secret, relative.browser))
    expect(grafanaUser(forRelative)).toEqual({ email: relative.email, name: relative.name, role: 'Editor' })

    // --groups family,admins: someone in neither is told so by the hub, and Grafana hears access_denied.
    const outsider = await householdMember(hub.issuer, hub.handle, [])
    const refused = await signInThrough(hub.issuer, grafana, secret, outsider.browser)
    expect(refused).toMatchObject({ refused: 'access_denied' })
    expect('page' in refused ? refused.page : '').toContain('You don’t have access to Grafana')
  })

  it('Immich: one public client for the phone app (app.immich:///oauth-callback) and the web, RS256, PKCE', async () => {
    const [command = []] = recipeCommands('Immich')
    expect(await registerByRecipe(hub.handle, command)).toBeNull()
    // server/src/repositories/oauth.repository.ts: openid-client 6, `id_token_signed_response_alg`
    // its "ID Token Signed Response Algorithm" (RS256 by default), PKCE when discovery lists S256,
    // None() when "Client Secret" is empty; the profile is the ID token's claims when they have
    // `email`, userinfo otherwise.
    const immich = (redirectUri: string): ApplicationClient => ({
      clientId: 'immich',
      redirectUri,
      scope: 'openid email profile',
      tokenEndpointAuth: 'none',
      pkce: true,
      nonce: false,
      idTokenAlgorithms: ['RS256']
    })
    for (const redirectUri of ['app.immich:///oauth-callback', 'https://photos.example/auth/login']) {
      const result = signedIn(await signInThrough(hub.issuer, immich(redirectUri), null, admin.browser))
      expect(result.discovery.code_challenge_methods_supported).toContain('S256')
      expect(result.idToken.header.alg).toBe('RS256')
      const profile = 'email' in result.idToken.claims ? result.idToken.claims : result.userinfo
      expect(profile).toMatchObject({ sub: admin.userId, email: admin.email, name: admin.name })
    }
  })

  it('Immich with a client secret: client_secret_post and the mobile redirect override', async () => {
    const [, command = []] = recipeCommands('Immich')
    const secret = await registerByRecipe(hub.handle, command)
    expect(secret).not.toBeNull()
    const result = signedIn(
      await signInThrough(
        hub.issuer,
        {
          clientId: 'immich-server',
          redirectUri: 'https://photos.example/api/oauth/mobile-redirect',
          scope: 'openid email profile',
          tokenEndpointAuth: 'client_secret_post',
          pkce: true,
          nonce: false,
          idTokenAlgorithms: ['RS256']
        },
        secret,
        relative.browser
      )
    )
    const profile = 'email' in result.idToken.claims ? result.idToken.claims : result.userinfo
    expect(profile).toMatchObject({ sub: relative.userId, email: relative.email })
  })

  it('Nextcloud user_oidc: client_secret_post chosen from discovery, RS256, every claim from the ID token', async () => {
    const [command = []] = recipeCommands('Nextcloud')
    const secret = await registerByRecipe(hub.handle, command)
    // lib/Controller/LoginController.php: PKCE when discovery lists S256; client_secret_post when
    // discovery lists it; a `claims` request parameter naming what it maps; the ID token verified
    // against the JWKS and read alone (enrich_login_id_token_with_userinfo is off by default).
    const claimsRequest = { email: null, name: null, quota: null, groups: null }
    const result = signedIn(
      await signInThrough(
        hub.issuer,
        {
          clientId: 'nextcloud',
          redirectUri: 'https://cloud.example/apps/user_oidc/code',
          scope: 'openid email profile groups',
          tokenEndpointAuth: 'client_secret_post',
          pkce: true,
          nonce: true,
          idTokenAlgorithms: ['RS256'],
          authorizationParameters: { claims: JSON.stringify({ id_token: claimsRequest, userinfo: claimsRequest }) }
        },
        secret,
        admin.browser
      )
    )
    expect(result.discovery.token_endpoint_auth_methods_supported).toContain('client_secret_post')
    expect(result.discovery.code_challenge_methods_supported).toContain('S256')
    // DiscoveryService::validateKeyStrength refuses an RSA key under 2048 bits.
    const jwks = (await (await fetch(result.discovery.jwks_uri ?? '')).json()) as { keys: { kid?: string; kty: string; n?: string }[] }
    const key = jwks.keys.find(({ kid }) => kid === result.idToken.header.kid)
    expect(key?.kty).toBe('RSA')
    expect(Buffer.from(key?.n ?? '', 'base64url').length * 8).toBeGreaterThanOrEqual(2048)
    // --mapping-uid=sub --mapping-email=email --mapping-display-name=name --mapping-groups=groups
    expect(result.idToken.claims).toMatchObject({ sub: admin.userId, email: admin.email, name: admin.name })
    expect(result.idToken.claims.groups).toEqual(expect.arrayContaining(['family', 'admins']))
  })

  it('Gitea and Forgejo: goth openidConnect without PKCE, HTTP Basic, userinfo merged over the ID token', async () => {
    const [command = []] = recipeCommands('Gitea')
    const secret = await registerByRecipe(hub.handle, command)
    // markbates/goth providers/openidConnect: scopes `openid` + the source's additional scopes, no
    // PKCE, oauth2's AuthStyleAutoDetect (Basic first), the ID token decoded without a signature
    // check, then userinfo merged into its claims.
    const gitea: ApplicationClient = {
      clientId: 'gitea',
      redirectUri: 'https://git.example/user/oauth2/hearth/callback',
      scope: 'openid email profile groups',
      tokenEndpointAuth: 'client_secret_basic',
      pkce: false,
      nonce: false
    }
    for (const application of [gitea, { ...gitea, pkce: true }]) {
      const result = signedIn(await signInThrough(hub.issuer, application, secret, admin.browser))
      // validateClaims: audience, issuer and expiry of the decoded ID token.
      expect(result.idToken.claims).toMatchObject({ aud: 'gitea', iss: hub.issuer })
      expect(result.userinfo.sub).toBe(result.idToken.claims.sub)
      const claims = { ...result.idToken.claims, ...result.userinfo }
      expect(claims).toMatchObject({ email: admin.email, name: admin.name })
      // --group-claim-name groups --admin-group admins
      expect(claims.groups).toEqual(expect.arrayContaining(['admins']))
    }
  })

  it('Jellyfin SSO plugin: OidcClient with PAR, client_secret_post, PKCE, RS256, roles from groups', async () => {
    const [command = []] = recipeCommands('Jellyfin')
    const secret = await registerByRecipe(hub.handle, command)
    // 9p4/jellyfin-plugin-sso SSOController: OidcClient, scope "openid profile" + oidScopes;
    // OidcClient: PKCE always, the secret in the body (TokenClientCredentialStyle PostBody), the
    // ID token's alg from an allow-list without EdDSA, then userinfo (LoadProfile).
    const jellyfin = (pushedAuthorization: boolean): ApplicationClient => ({
      clientId: 'jellyfin',
      redirectUri: 'https://jellyfin.example/sso/OID/redirect/hearth',
      scope: 'openid profile email groups',
      tokenEndpointAuth: 'client_secret_post',
      pkce: true,
      nonce: true,
      idTokenAlgorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256'],
      pushedAuthorization
    })
    for (const pushedAuthorization of [true, false]) {
      const result = signedIn(await signInThrough(hub.issuer, jellyfin(pushedAuthorization), secret, admin.browser))
      const claims = { ...result.userinfo, ...result.idToken.claims }
      // defaultUsernameClaim email; roleClaim groups: roles ["family", "admins"], adminRoles ["admins"].
      expect(claims.email).toBe(admin.email)
      const groups = claims.groups as string[]
      expect(groups.some((group) => ['family', 'admins'].includes(group))).toBe(true)
      expect(groups).toContain('admins')
    }
  })

  it('Proxmox VE: openidconnect-rs with PKCE, HTTP Basic, RS256 only, and the origin as redirect URI', async () => {
    const [command = []] = recipeCommands('Proxmox')
    const secret = await registerByRecipe(hub.handle, command)
    // proxmox-openid (openidconnect 4): PKCE S256, a nonce, display=page, `openid` plus the realm's
    // scopes, the client secret with HTTP Basic, the crate's default ID token check (RS256 only),
    // then userinfo filling what the ID token lacks.
    const result = signedIn(
      await signInThrough(
        hub.issuer,
        {
          clientId: 'proxmox',
          redirectUri: 'https://pve.example:8006',
          scope: 'openid email profile groups',
          tokenEndpointAuth: 'client_secret_basic',
          pkce: true,
          nonce: true,
          idTokenAlgorithms: ['RS256'],
          authorizationParameters: { display: 'page' }
        },
        secret,
        relative.browser
      )
    )
    const claims = { ...result.userinfo, ...result.idToken.claims }
    // --username-claim email --groups-claim groups
    expect(claims).toMatchObject({ sub: relative.userId, email: relative.email, groups: ['family'] })
  })
})
