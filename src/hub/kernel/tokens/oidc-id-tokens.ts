import { type JWTPayload, createRemoteJWKSet, jwtVerify } from 'jose'
import { serviceUnavailable } from '../../../shared/errors.js'
import { type IdTokenVerifier, tokenUseOf } from './identity.js'
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
        if (typeof payload.sub !== 'string' || payload.sub === '' || !isAuthorizedFor(payload, audience)) return null
        const email = typeof payload.email === 'string' ? payload.email : ''
        // Only the boolean true the spec defines counts: a missing claim or a string "true" is not a check we can rely on.
        const identity = { userId: payload.sub, email, emailVerified: email !== '' && payload.email_verified === true }
        // The provider's `sid` names its own session, not one of ours: nothing to check it against.
        return { identity, ...tokenUseOf(idToken, payload) }
      } catch (error) {
        if (isRejectedToken(error)) return null
        // The provider's keys could not be fetched: our outage, not the caller's bad token. Logged as a 5xx.
        throw Object.assign(serviceUnavailable('The identity provider cannot be reached'), { cause: error })
      }
    }
  }
}

/**
 * OpenID Connect Core 3.1.3.7, points 4 and 5: a token for several audiences must name the party
 * it was issued to (`azp`), and that party must be us; otherwise another client of the same
 * provider, also listed as an audience, could have obtained it and be replaying it here.
 */
function isAuthorizedFor(payload: JWTPayload, clientId: string): boolean {
  const severalAudiences = Array.isArray(payload.aud) && payload.aud.length > 1
  if (payload.azp === undefined) return !severalAudiences
  return payload.azp === clientId
}
