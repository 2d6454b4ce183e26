import { randomUUID } from 'node:crypto'
import { jwtVerify } from 'jose'
import { type IdTokenVerifier, type VerifiedIdentity, tokenUseOf } from './identity.js'
import { type Keyring, SIGNING_ALGORITHMS } from './keyring.js'
import { signWithKeyring } from './signing.js'
import { CLOCK_TOLERANCE_SECONDS, isRejectedToken } from './token-errors.js'

/**
 * Long enough for the browser's next request (set-cookie), short enough that a token copied from a
 * response or a log is soon useless. It is also single use and tied to its session (`sid`).
 */
export const ID_TOKEN_LIFETIME_SECONDS = 2 * 60

/**
 * The built-in identity provider's ID tokens: issuer and audience are both the hub's public URL.
 * SSO tokens carry an application name as audience (never a URL), so neither kind passes for the other.
 * Each token has a `jti`, so set-cookie can accept it once, and names the login's session (`sid`, as
 * in OpenID Connect), so it is refused once that session has ended.
 */
export function createBuiltinIdTokens(keyring: Keyring, publicUrl: string) {
  const issue = async (identity: VerifiedIdentity, sessionId: string, now: Date): Promise<{ idToken: string; expiresAt: Date }> => {
    const { token, expiresAt } = await signWithKeyring(
      keyring,
      {
        issuer: publicUrl,
        audience: publicUrl,
        subject: identity.userId,
        lifetimeSeconds: ID_TOKEN_LIFETIME_SECONDS,
        claims: { email: identity.email, email_verified: identity.emailVerified, jti: randomUUID(), sid: sessionId }
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
          requiredClaims: ['sub', 'iat', 'exp', 'email', 'jti', 'sid']
        })
        if (typeof payload.sub !== 'string' || typeof payload.email !== 'string' || typeof payload.sid !== 'string') return null
        return {
          identity: { userId: payload.sub, email: payload.email, emailVerified: payload.email_verified === true },
          ...tokenUseOf(idToken, payload),
          sessionId: payload.sid
        }
      } catch (error) {
        if (isRejectedToken(error)) return null
        throw error
      }
    }
  }
  return { issue, verifier }
}

export type BuiltinIdTokens = ReturnType<typeof createBuiltinIdTokens>
