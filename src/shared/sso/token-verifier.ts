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
      const { payload } = await jwtVerify(token, keys, {
        algorithms: SSO_TOKEN_ALGORITHMS,
        issuer,
        audience,
        // The hub's ID tokens are signed with the same keys; only an SSO token carries this type.
        typ: SSO_TOKEN_TYPE,
        clockTolerance: CLOCK_SKEW_SECONDS,
        // Also makes jose refuse an `iat` further in the future than the skew.
        maxTokenAge: SSO_TOKEN_LIFETIME_SECONDS,
        requiredClaims: ['sub', 'exp', 'iat']
      })
      if (!payload.sub || !withinSsoLifetime(payload)) throw new SsoTokenError('invalid')
      return { userId: payload.sub, email: typeof payload.email === 'string' ? payload.email : undefined }
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
