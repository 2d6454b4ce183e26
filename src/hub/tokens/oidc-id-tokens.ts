import { createRemoteJWKSet, jwtVerify } from 'jose'
import { serviceUnavailable } from '../../shared/errors.js'
import type { IdTokenVerifier } from './identity.js'
import { CLOCK_TOLERANCE_SECONDS, isRejectedToken } from './token-errors.js'

/** What external providers sign ID tokens with; never `none` and never a symmetric algorithm. */
export const OIDC_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA']

export interface OidcOptions {
  jwksUrl: URL
  issuer: string
  audience: string
}

/** Verifies an external OpenID Connect provider's ID tokens against its published keys. */
export function createOidcVerifier({ jwksUrl, issuer, audience }: OidcOptions): IdTokenVerifier {
  // jose caches the key set and refetches it when a token names an unknown kid (a rotation).
  const keys = createRemoteJWKSet(jwksUrl)
  return {
    async verify(idToken, now) {
      try {
        const { payload } = await jwtVerify(idToken, keys, {
          algorithms: OIDC_ALGORITHMS,
          issuer,
          audience,
          currentDate: now,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['sub', 'iat', 'exp']
        })
        if (typeof payload.sub !== 'string' || payload.sub === '') return null
        return { userId: payload.sub, email: typeof payload.email === 'string' ? payload.email : '' }
      } catch (error) {
        if (isRejectedToken(error)) return null
        // The provider's keys could not be fetched: our outage, not the caller's bad token. Logged as a 5xx.
        throw Object.assign(serviceUnavailable('The identity provider cannot be reached'), { cause: error })
      }
    }
  }
}
