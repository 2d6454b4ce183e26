import { SignJWT, jwtVerify } from 'jose'
import type { IdTokenVerifier, VerifiedIdentity } from './identity.js'
import { type Keyring, SIGNING_ALGORITHMS } from './keyring.js'
import { CLOCK_TOLERANCE_SECONDS, isRejectedToken } from './token-errors.js'

export const ID_TOKEN_LIFETIME_SECONDS = 60 * 60

/**
 * The built-in identity provider's ID tokens: issuer and audience are both the hub's public URL.
 * SSO tokens carry an application name as audience (never a URL), so neither kind passes for the other.
 */
export function createBuiltinIdTokens(keyring: Keyring, publicUrl: string) {
  const issue = async (identity: VerifiedIdentity, now: Date): Promise<{ idToken: string; expiresAt: Date }> => {
    const { key, kid, alg } = await keyring.signingKey()
    const issuedAt = Math.floor(now.getTime() / 1000)
    const expiresAt = new Date((issuedAt + ID_TOKEN_LIFETIME_SECONDS) * 1000)
    const idToken = await new SignJWT({ email: identity.email })
      .setProtectedHeader({ alg, kid, typ: 'JWT' })
      .setIssuer(publicUrl)
      .setAudience(publicUrl)
      .setSubject(identity.userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key)
    return { idToken, expiresAt }
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
