import { randomUUID } from 'node:crypto'
import { SSO_TOKEN_LIFETIME_SECONDS, SSO_TOKEN_TYPE } from '../../../shared/sso/sso-token.js'
import type { Keyring } from './keyring.js'
import { signWithKeyring } from './signing.js'
import type { Entitlements } from '../../features/billing/entitlements.js'

export interface SsoTokenClaims extends Entitlements {
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
 * one-off `jti`, five minutes; `name` only when given; the account's `plan` and `entitlements`
 * (docs/billing.md).
 */
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
      type: SSO_TOKEN_TYPE,
      claims: {
        email: claims.email,
        email_verified: claims.emailVerified,
        ...(claims.name !== undefined && { name: claims.name }),
        plan: claims.plan,
        entitlements: claims.entitlements,
        jti: randomUUID()
      }
    },
    now
  )
}
