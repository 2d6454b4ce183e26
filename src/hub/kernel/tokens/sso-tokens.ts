import { randomUUID } from 'node:crypto'
import { SSO_TOKEN_LIFETIME_SECONDS, SSO_TOKEN_TYPE } from '../../../shared/sso/sso-token.js'
import type { Keyring } from './keyring.js'
import { signWithKeyring } from './signing.js'

export interface SsoTokenClaims {
  userId: string
  email: string
  /** Whether a link mailed to `email` was used (built-in provider), or the provider said so at sign-in. */
  emailVerified: boolean
  /** The display name, only when the person's profile is visible beyond themselves. */
  name?: string
  /** The registered application the token is for. */
  audience: string
}

/**
 * Signs an SSO token: typed `hearth-sso+jwt`, `iss` the hub's public URL, `aud` the application,
 * one-off `jti`, five minutes; `name` only when given; then the claims features add (billing's
 * `plan` and `entitlements`, docs/billing.md), composed in claims.ts under names none of these take.
 */
export function issueSsoToken(
  keyring: Keyring,
  issuer: string,
  claims: SsoTokenClaims & Readonly<Record<string, unknown>>,
  now: Date
): Promise<{ token: string; expiresAt: Date }> {
  const { userId, audience, email, emailVerified, name, ...added } = claims
  return signWithKeyring(
    keyring,
    {
      issuer,
      audience,
      subject: userId,
      lifetimeSeconds: SSO_TOKEN_LIFETIME_SECONDS,
      type: SSO_TOKEN_TYPE,
      claims: {
        email,
        email_verified: emailVerified,
        ...(name !== undefined && { name }),
        ...added,
        jti: randomUUID()
      }
    },
    now
  )
}
