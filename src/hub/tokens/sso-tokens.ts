import { randomUUID } from 'node:crypto'
import type { Keyring } from './keyring.js'
import { signWithKeyring } from './signing.js'

/** Long enough to navigate to another application, short enough that a leaked token is soon useless. */
export const SSO_TOKEN_LIFETIME_SECONDS = 5 * 60

export interface SsoTokenClaims {
  userId: string
  email: string
  /** The registered application the token is for. */
  audience: string
}

/** Signs an SSO token: `iss` the hub's public URL, `aud` the application, one-off `jti`, five minutes. */
export function issueSsoToken(
  keyring: Keyring,
  issuer: string,
  claims: SsoTokenClaims,
  now: Date
): Promise<{ token: string; expiresAt: Date }> {
  return signWithKeyring(
    keyring,
    {
      issuer,
      audience: claims.audience,
      subject: claims.userId,
      lifetimeSeconds: SSO_TOKEN_LIFETIME_SECONDS,
      claims: { email: claims.email, jti: randomUUID() }
    },
    now
  )
}
