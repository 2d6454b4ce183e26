import { jwtVerify } from 'jose'
import type { IdTokenVerifier, VerifiedIdentity } from './identity.js'
import { type Keyring, SIGNING_ALGORITHMS } from './keyring.js'
import { signWithKeyring } from './signing.js'
import { CLOCK_TOLERANCE_SECONDS, isRejectedToken } from './token-errors.js'

export const ID_TOKEN_LIFETIME_SECONDS = 60 * 60

/**
 * The built-in identity provider's ID tokens: issuer and audience are both the hub's public URL.
 * SSO tokens carry an application name as audience (never a URL), so neither kind passes for the other.
 */
export function createBuiltinIdTokens(keyring: Keyring, publicUrl: string) {
  const issue = async (identity: VerifiedIdentity, now: Date): Promise<{ idToken: string; expiresAt: Date }> => {
    const { token, expiresAt } = await signWithKeyring(
      keyring,
      {
        issuer: publicUrl,
        audience: publicUrl,
        subject: identity.userId,
        lifetimeSeconds: ID_TOKEN_LIFETIME_SECONDS,
        claims: { email: identity.email }
      },
      now
    )
    return { idToken: token, expiresAt }
  }

  const verifier: IdTokenVerifier = {
    async verify(idToken, now) {
      try {
        const { payload } = await jwtVerify(idToken, keyring.verifier(now), {
          algorithms: [...SIGNING_ALGORITHMS],
          issuer: publicUrl,
          audience: publicUrl,
          currentDate: now,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['sub', 'iat', 'exp', 'email']
        })
        if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') return null
        return { userId: payload.sub, email: payload.email }
      } catch (error) {
        if (isRejectedToken(error)) return null
        throw error
      }
    }
  }
  return { issue, verifier }
}

export type BuiltinIdTokens = ReturnType<typeof createBuiltinIdTokens>
