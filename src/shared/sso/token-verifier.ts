import { type JWTPayload, type JWTVerifyGetKey, createRemoteJWKSet, errors, jwtVerify } from 'jose'
import { SSO_TOKEN_LIFETIME_SECONDS, SSO_TOKEN_TYPE } from './sso-token.js'

/** The hub signs SSO tokens with one of these; anything else (`none`, HMAC) is refused. */
export const SSO_TOKEN_ALGORITHMS = ['EdDSA', 'ES256']
/** Tolerated difference between the hub's clock and ours. */
export const CLOCK_SKEW_SECONDS = 30

export interface SsoIdentity {
  userId: string
  email: string | undefined
  /** The token's `iat`, in seconds. */
  issuedAt: number
}

export class SsoTokenError extends Error {
  constructor(
    readonly code: 'expired' | 'invalid',
    options?: ErrorOptions
  ) {
    super(code === 'expired' ? 'SSO token has expired' : 'SSO token is invalid', options)
    this.name = 'SsoTokenError'
  }
}

export type SsoTokenVerifier = (token: string) => Promise<SsoIdentity>

/** Where a token the hub signed for an application is checked: the hub's keys, its issuer, this application's id. */
export interface HubTokenCheck {
  keys: JWTVerifyGetKey
  issuer: string
  audience: string
  /** The verifier's clock; the system's when absent. */
  now?: () => Date
}

/** What tells one kind of hub token from the others, and how long that kind lives. */
export interface HubTokenKind {
  type: string
  maxAgeSeconds: number
  requiredClaims: string[]
}

/**
 * The checks every token the hub signs for an application passes, whatever its kind: its `typ`
 * (SSO tokens, security events, export requests and ID tokens share one key set), a signature by
 * an allowed algorithm and a published key, `iss`, `aud`, times within the clock skew, and an
 * `iat` no older than the kind ever lives, which also refuses one from the future.
 */
export function verifyHubToken(token: string, { keys, issuer, audience, now }: HubTokenCheck, { type, maxAgeSeconds, requiredClaims }: HubTokenKind) {
  return jwtVerify(token, keys, {
    algorithms: SSO_TOKEN_ALGORITHMS,
    issuer,
    audience,
    typ: type,
    clockTolerance: CLOCK_SKEW_SECONDS,
    maxTokenAge: maxAgeSeconds,
    requiredClaims,
    ...(now && { currentDate: now() })
  })
}


export interface SsoTokenVerifierOptions {
  /** The hub's public keys: remote (`remoteHubKeys`) or, in one process, the hub's own key set. */
  keys: JWTVerifyGetKey
  issuer: string
  audience: string
}

/**
 * Verifies an SSO token of the hub: the `hearth-sso+jwt` type, signature by an allowed algorithm and
 * a published key, `iss`, `aud`, `exp` and `iat` within the clock skew (`iat` not in the future),
 * `exp - iat` within the hub's SSO token lifetime, and a subject. Every failure is an SsoTokenError.
 */
export function createSsoTokenVerifier({ keys, issuer, audience }: SsoTokenVerifierOptions): SsoTokenVerifier {
  return async (token) => {
    try {
      const { payload } = await verifyHubToken(
        token,
        { keys, issuer, audience },
        { type: SSO_TOKEN_TYPE, maxAgeSeconds: SSO_TOKEN_LIFETIME_SECONDS, requiredClaims: ['sub', 'exp', 'iat'] }
      )
      if (!payload.sub || payload.iat === undefined || !withinSsoLifetime(payload)) throw new SsoTokenError('invalid')
      return { userId: payload.sub, email: typeof payload.email === 'string' ? payload.email : undefined, issuedAt: payload.iat }
    } catch (error) {
      if (error instanceof SsoTokenError) throw error
      throw new SsoTokenError(error instanceof errors.JWTExpired ? 'expired' : 'invalid', { cause: error })
    }
  }
}

/** A token whose `exp` lies further from its `iat` than the hub ever signs was not made by the hub's token route. */
function withinSsoLifetime({ iat, exp }: JWTPayload): boolean {
  return iat !== undefined && exp !== undefined && exp - iat <= SSO_TOKEN_LIFETIME_SECONDS
}

/**
 * The hub's JWKS over HTTP, cached for ten minutes. A token naming a key not yet seen triggers a
 * refetch (at most once per cooldown, 5 s by default), so a rotated key is picked up without a
 * restart and a flood of forged key ids cannot turn into a flood of fetches.
 */
export function remoteHubKeys(jwksUrl: URL, { cooldownMs = 5_000 } = {}): JWTVerifyGetKey {
  return createRemoteJWKSet(jwksUrl, { cacheMaxAge: 10 * 60_000, cooldownDuration: cooldownMs, timeoutDuration: 5_000 })
}
