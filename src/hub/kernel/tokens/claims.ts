import type { Language } from '../language/language.js'

/**
 * Claims a feature adds to what the hub's tokens say of an account (docs/architecture.md): in
 * every SSO token, and over OpenID Connect under a scope of the feature's own (billing's `plan`
 * and `entitlements` under `billing`, docs/billing.md). The kernel knows no such claim: the
 * feature declares them, app.ts composes the sources once at start, and the SSO route and the
 * OpenID Connect provider merge what the composition reads.
 */
export interface ClaimsSource {
  /** The OpenID Connect scope that carries the claims: in discovery and on the consent page. */
  scope: string
  /** The claims' names, the ones the scope grants; a source's other keys are never signed. */
  claims: readonly string[]
  /** What the consent page says the scope gives the application, in each of the pages' languages. */
  consent: Readonly<Record<Language, string>>
  /** The account's claims as of `now`: read as each token or userinfo answer is made. */
  claimsOf: (userId: string, now: Date) => Promise<Readonly<Record<string, unknown>>>
}

/** The claims features add, composed once: the sources, and one read of all their claims. */
export interface AddedClaims {
  readonly sources: readonly ClaimsSource[]
  /** Every source's claims of the account, under their declared names only; the sources read at once. */
  of(userId: string, now: Date): Promise<Record<string, unknown>>
}

/** Scopes the provider defines itself (docs/oidc.md), and scopes OpenID Connect Core 5.4 gives other claims. */
const RESERVED_SCOPES: ReadonlySet<string> = new Set(['openid', 'email', 'profile', 'offline_access', 'address', 'phone'])

/**
 * Claims the hub's tokens carry of their own (the JWT's registered claims, the SSO token's, and
 * those an ID token or userinfo answer is made of): a feature may neither replace nor shadow them.
 */
const RESERVED_CLAIMS: ReadonlySet<string> = new Set([
  'iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti',
  'email', 'email_verified', 'name',
  'azp', 'auth_time', 'nonce', 'acr', 'amr', 'sid', 'at_hash', 'c_hash', 's_hash', 'scope', 'client_id', 'events'
])

/**
 * Checks the sources against the hub's own scopes and claims and against each other, once at start
 * (a clash is a programming error: the hub does not start), and composes them.
 */
export function composeClaimsSources(sources: readonly ClaimsSource[]): AddedClaims {
  const scopes = new Set<string>()
  const names = new Set<string>()
  for (const { scope, claims } of sources) {
    if (RESERVED_SCOPES.has(scope) || scopes.has(scope)) throw new Error(`Claims source scope taken: ${scope}`)
    scopes.add(scope)
    for (const name of claims) {
      if (RESERVED_CLAIMS.has(name) || names.has(name)) throw new Error(`Claims source claim taken: ${name} (scope ${scope})`)
      names.add(name)
    }
  }
  return {
    sources,
    async of(userId, now) {
      const read = await Promise.all(sources.map((source) => source.claimsOf(userId, now)))
      const added: Record<string, unknown> = {}
      sources.forEach(({ claims }, index) => {
        const values = read[index] as Readonly<Record<string, unknown>>
        for (const name of claims) if (values[name] !== undefined) added[name] = values[name]
      })
      return added
    }
  }
}
