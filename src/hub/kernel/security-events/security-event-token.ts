import { SignJWT } from 'jose'
import { type OpaqueSubject, SECURITY_EVENT_TOKEN_TYPE } from '../../../shared/security-events/security-event-token.js'
import type { Keyring } from '../tokens/keyring.js'
import type { PendingSecurityEvent } from './outbox.js'

/**
 * Signs one delivery of an event as a SET (RFC 8417) with the keys that sign SSO tokens, so an
 * application verifies both against the same JWKS. `aud` is the application's id, as in its SSO
 * tokens; `iat` is this attempt (see SECURITY_EVENT_MAX_AGE_SECONDS), `toe` the change, `jti` the
 * outbox row's id on every attempt. The subject is named twice, as RFC 9493's `sub_id` and inside
 * the event as the OpenID RISC profile has it; there is no `sub` and no `exp` (RFC 8417 section 2.2).
 */
export async function signSecurityEvent(keyring: Keyring, issuer: string, event: PendingSecurityEvent, now: Date): Promise<string> {
  const { key, kid, alg } = await keyring.signingKey()
  const subject: OpaqueSubject = { format: 'opaque', id: event.userId }
  return new SignJWT({
    jti: event.id,
    toe: Math.floor(Date.parse(event.createdAt) / 1000),
    sub_id: subject,
    events: { [event.eventType]: { subject } }
  })
    .setProtectedHeader({ alg, kid, typ: SECURITY_EVENT_TOKEN_TYPE })
    .setIssuer(issuer)
    .setAudience(event.applicationId)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .sign(key)
}
