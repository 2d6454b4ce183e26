import type { IncomingMessage } from 'node:http'
import type { Kysely } from 'kysely'
import type { Account, Configuration, KoaContextWithOIDC } from 'oidc-provider'
import type { Database } from '../../../shared/database/schema.js'
import type { ActiveSession } from '../../kernel/sessions/sessions.js'
import type { AddedClaims } from '../../kernel/tokens/claims.js'
import type { Keyring } from '../../kernel/tokens/keyring.js'
import type { SsoIdentity } from '../../kernel/tokens/sso-identity.js'
import { type OidcClients, PKCE_METADATA, secretMatches } from './clients.js'
import type { OidcProviderLibrary, Provider } from './oidc-provider-module.js'
import { OIDC_PATH_PREFIX, interactionPath } from './paths.js'
import { providerAdapterFactory } from './provider-adapter.js'
import { type PageContextOfRequest, logoutPage, providerErrorPage } from './provider-pages.js'

/** What an account shows relying parties, or undefined when it may use no token (gone or disabled). */
export type ProviderAccountOf = (accountId: string) => Promise<SsoIdentity | undefined>

export interface HubProviderOptions {
  issuer: string
  db: Kysely<Database>
  clients: OidcClients
  keyring: Keyring
  cookieKeys: readonly string[]
  accountOf: ProviderAccountOf
  /** The claims features add, each source under its own scope: billing's `plan` and `entitlements` under `billing` (docs/billing.md). */
  addedClaims: AddedClaims
  /** The hub session the request carries, as the mount read it before handing the request over. */
  hubSessionOf: (request: IncomingMessage) => ActiveSession | null
  /** Whether to believe X-Forwarded-Proto (HUB_TRUSTED_PROXIES is set). */
  behindProxy: boolean
  /** The page context (language, CSP nonce) of the response being written, for the provider's own pages. */
  pageContextOf: PageContextOfRequest
  now: () => Date
}

/** The claims of the scopes the provider defines itself (docs/oidc.md); features add theirs after these. */
const OWN_SCOPE_CLAIMS = { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] }

/** Every scope the provider grants: its own, each claims source's, then `offline_access` (refresh tokens). */
export function providerScopes(addedClaims: AddedClaims): string[] {
  return [...Object.keys(OWN_SCOPE_CLAIMS), ...addedClaims.sources.map(({ scope }) => scope), 'offline_access']
}

/**
 * The step of a person whose groups the client does not admit (`OidcClient.allowedGroups`): the
 * hub's refusal page (routes.tsx), then `access_denied` to the application.
 */
export const NOT_ADMITTED_PROMPT = 'not_admitted'

const ownTokensOnly = async (_ctx: KoaContextWithOIDC, client: { clientId: string }, token: { clientId?: string }) => token.clientId === client.clientId

/**
 * The provider's outgoing requests, which are back-channel logouts only: to a URL an administrator
 * registered, and nowhere else. Household applications often live on private addresses, so this
 * allow-list takes the place of the provider's special-use address guard, which would refuse them.
 */
export function registeredUrlsOnly(clients: Pick<OidcClients, 'backchannelLogoutUris'>) {
  return async (url: string | URL, init: RequestInit & { dispatcher?: unknown }): Promise<Response> => {
    const target = new URL(url).href
    if (!(await clients.backchannelLogoutUris()).has(target)) throw new Error(`Refusing a request to an unregistered URL: ${target}`)
    const { dispatcher: _dispatcher, ...rest } = init
    return globalThis.fetch(target, rest)
  }
}

export const TOKEN_LIFETIMES_SECONDS = {
  AccessToken: 10 * 60,
  AuthorizationCode: 60,
  IdToken: 10 * 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Interaction: 30 * 60,
  Session: 30 * 24 * 60 * 60,
  Grant: 365 * 24 * 60 * 60
}

/**
 * The hub's OpenID Connect provider (oidc-provider), configured for the authorization code flow
 * with PKCE only. Built over the keyring's current keys: the mount builds a new provider when they
 * change (a rotation), since oidc-provider reads its keys once.
 */
export function buildHubProvider(library: OidcProviderLibrary, options: HubProviderOptions): Provider {
  const { Provider, interactionPolicy, errors: providerErrors } = library
  const { issuer, db, clients, keyring, cookieKeys, accountOf, hubSessionOf, now } = options
  const keys = keyring.privateJwks(now())
  const signingAlgorithm = keys[0]?.alg
  if (!signingAlgorithm) throw new Error('The signing key set is empty')
  // Each algorithm with a live key signs the ID tokens of the clients that ask for it; discovery lists them.
  const algorithms = keyring.algorithms(now())

  const policy = interactionPolicy.base()
  // The provider's session counts only beside the hub's own session of the same person: signing out
  // of the hub (or in as someone else) sends the next authorization request back to sign-in.
  policy.get('login')?.checks.add(
    new interactionPolicy.Check('hub_session', 'The hub session has ended or belongs to someone else', (ctx) => {
      return hubSessionOf(ctx.req)?.userId !== ctx.oidc.session?.accountId
    })
  )

  // After sign-in, before consent: a person the client's groups do not admit is asked nothing more.
  // Checked at every authorization request, remembered consent or not; `prompt=none` gets access_denied.
  policy.add(
    new interactionPolicy.Prompt(
      { name: NOT_ADMITTED_PROMPT, requestable: false },
      new interactionPolicy.Check('not_in_allowed_groups', 'The application is limited to groups the person is in none of', 'access_denied', async (ctx) => {
        const accountId = ctx.oidc.session?.accountId
        const clientId = ctx.oidc.client?.clientId
        return accountId !== undefined && clientId !== undefined && !(await clients.allows(clientId, accountId))
      })
    ),
    1
  )

  const configuration: Configuration = {
    adapter: providerAdapterFactory(
      db,
      clients,
      now,
      () => {
        const request = Provider.ctx?.req
        return request ? hubSessionOf(request) : null
      },
      // EdDSA, every client's default, means the hub's own algorithm: the first key's, which is
      // Ed25519 unless HUB_SIGNING_KEY says otherwise.
      (alg) => (alg === 'EdDSA' && !algorithms.includes('EdDSA') ? signingAlgorithm : alg)
    ),
    clients: [],
    // `token` is the code, refresh token or access token a token or userinfo answer is made from
    // (absent at the authorization endpoint, where the prompt above refuses): someone the client's
    // groups no longer admit is no account to it, so the grant is refused (invalid_grant) and
    // userinfo answers 401 invalid_token from their removal on.
    async findAccount(_ctx: KoaContextWithOIDC, accountId: string, token?: { clientId?: string }): Promise<Account | undefined> {
      const identity = await accountOf(accountId)
      if (!identity) return undefined
      if (token?.clientId !== undefined && !(await clients.allows(token.clientId, accountId))) return undefined
      return {
        accountId,
        // Asked for only when a token or userinfo answer is made, and then read fresh.
        claims: async () => ({
          sub: accountId,
          email: identity.email,
          email_verified: identity.emailVerified,
          ...(identity.name === undefined ? {} : { name: identity.name }),
          ...(await options.addedClaims.of(accountId, now()))
        })
      }
    },
    claims: { ...OWN_SCOPE_CLAIMS, ...Object.fromEntries(options.addedClaims.sources.map(({ scope, claims }) => [scope, [...claims]])) },
    scopes: providerScopes(options.addedClaims),
    responseTypes: ['code'],
    // The ID token carries the granted scopes' claims too, as userinfo does (docs/oidc.md): many
    // applications read `email` or `groups` from the ID token alone (Pocket ID and Authentik do the same).
    conformIdTokenClaims: false,
    // A public client always proves itself with PKCE; a confidential one may be registered without it (clients.ts).
    pkce: { required: (_ctx: KoaContextWithOIDC, client: { tokenEndpointAuthMethod: string; [PKCE_METADATA]?: string }) => client.tokenEndpointAuthMethod === 'none' || client[PKCE_METADATA] !== 'optional' },
    // The client's registered method is the only one the provider accepts from it (basic, post or none).
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    extraClientMetadata: { properties: [PKCE_METADATA] },
    enabledJWA: { idTokenSigningAlgValues: algorithms, userinfoSigningAlgValues: algorithms, introspectionSigningAlgValues: algorithms },
    clientDefaults: { id_token_signed_response_alg: signingAlgorithm, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
    jwks: { keys },
    cookies: { keys: [...cookieKeys] },
    ttl: TOKEN_LIFETIMES_SECONDS,
    // Every client allowed the refresh grant gets a refresh token, rotated at each use.
    issueRefreshToken: async (_ctx: KoaContextWithOIDC, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // An application may look into and revoke its own tokens only, never another's.
      revocation: { enabled: true, allowedPolicy: ownTokensOnly },
      introspection: { enabled: true, allowedPolicy: ownTokensOnly },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC) => logoutPage(ctx, ctx.oidc.session?.state?.secret ?? '', options.pageContextOf(ctx.req)),
        postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
          ctx.status = 303
          ctx.set('location', '/login')
        }
      }
    },
    routes: {
      authorization: `${OIDC_PATH_PREFIX}/auth`,
      token: `${OIDC_PATH_PREFIX}/token`,
      userinfo: `${OIDC_PATH_PREFIX}/me`,
      end_session: `${OIDC_PATH_PREFIX}/session/end`,
      revocation: `${OIDC_PATH_PREFIX}/token/revocation`,
      introspection: `${OIDC_PATH_PREFIX}/token/introspection`,
      // The hub's own JWKS, the same keys: one key set for SSO tokens and ID tokens.
      jwks: '/.well-known/jwks.json',
      pushed_authorization_request: `${OIDC_PATH_PREFIX}/request`
    },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => interactionPath(interaction.uid), policy },
    renderError: async (ctx: KoaContextWithOIDC, out: Record<string, string>) => providerErrorPage(ctx, out, options.pageContextOf(ctx.req)),
    fetch: registeredUrlsOnly(clients)
  }

  const provider = new Provider(issuer, configuration)
  provider.proxy = options.behindProxy
  // `client_secret` holds the secret's hash (clients.ts): compare what the client presents with it.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret: string; clientAuthMethod: string }, actual: string) {
    // oidc-provider takes a secret in the body and in a Basic header alike; the client's registered
    // method is the only one it may use (RFC 7591 2, OpenID Connect Core 9), so the other is refused.
    const sent = Provider.ctx?.oidc.params?.client_secret === undefined ? 'client_secret_basic' : 'client_secret_post'
    if (sent !== this.clientAuthMethod) {
      throw new providerErrors.InvalidClientAuth(`the client is registered for ${this.clientAuthMethod} and sent its secret by ${sent}`)
    }
    return secretMatches(this.clientSecret, actual)
  }
  return provider
}
