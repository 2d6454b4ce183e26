import { type JWTPayload, SignJWT } from 'jose'
import type { Keyring } from './keyring.js'

export interface TokenContent {
  issuer: string
  audience: string
  subject: string
  lifetimeSeconds: number
  /** The `typ` header: `JWT` unless the kind of token must be told apart from the others (RFC 8725 3.11). */
  type?: string
  /** Further claims (`email`, `jti`). */
  claims: JWTPayload
}

/** Signs a JWT with the keyring's current key: header `alg`, `kid`, `typ`; `iat` and `exp` from `now`. */
export async function signWithKeyring(keyring: Keyring, content: TokenContent, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const { key, kid, alg } = await keyring.signingKey()
  const issuedAt = Math.floor(now.getTime() / 1000)
  const expiresAt = new Date((issuedAt + content.lifetimeSeconds) * 1000)
  const token = await new SignJWT(content.claims)
    .setProtectedHeader({ alg, kid, typ: content.type ?? 'JWT' })
    .setIssuer(content.issuer)
    .setAudience(content.audience)
    .setSubject(content.subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key)
  return { token, expiresAt }
}
