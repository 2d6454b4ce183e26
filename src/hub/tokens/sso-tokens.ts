import { randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import type { Keyring } from './keyring.js'

/** Long enough to navigate to another application, short enough that a leaked token is soon useless. */
export const SSO_TOKEN_LIFETIME_SECONDS = 5 * 60

export interface SsoTokenClaims {
  userId: string
  email: string
  /** The registered application the token is for. */
  audience: string
}

/** Signs an SSO token: `iss` the hub's public URL, `aud` the application, one-off `jti`, five minutes. */
export async function issueSsoToken(
  keyring: Keyring,
  issuer: string,
  claims: SsoTokenClaims,
  now: Date
): Promise<{ token: string; expiresAt: Date }> {
  const { key, kid, alg } = await keyring.signingKey()
  const issuedAt = Math.floor(now.getTime() / 1000)
  const expiresAt = new Date((issuedAt + SSO_TOKEN_LIFETIME_SECONDS) * 1000)
  const token = await new SignJWT({ email: claims.email })
    .setProtectedHeader({ alg, kid, typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject(claims.userId)
    .setAudience(claims.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(randomUUID())
    .sign(key)
  return { token, expiresAt }
}
