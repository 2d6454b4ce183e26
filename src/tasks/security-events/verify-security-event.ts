import { type JWTVerifyGetKey, errors } from 'jose'
import {
  type OpaqueSubject,
  SECURITY_EVENT_MAX_AGE_SECONDS,
  SECURITY_EVENT_TOKEN_TYPE
} from '../../shared/security-events/security-event-token.js'
import { verifyHubToken } from '../../shared/sso/token-verifier.js'

/** The error codes of RFC 8935 section 2.3 this endpoint answers with. */
export type SecurityEventErrorCode = 'invalid_request' | 'invalid_key' | 'invalid_issuer' | 'invalid_audience'

/** A SET refused: answered 400 `{err, description}` (RFC 8935 section 2.3). */
export class SecurityEventRefused extends Error {
  constructor(
    readonly code: SecurityEventErrorCode,
    description: string
  ) {
    super(description)
    this.name = 'SecurityEventRefused'
  }
}

export interface VerifiedSecurityEvent {
  jti: string
  /** The event type URI. */
  eventType: string
  /** The subject: the hub's user id. */
  userId: string
  /** When the change happened, in seconds: its `toe`, else its `iat`. */
  occurredAt: number
}

export interface SecurityEventVerifierOptions {
  /** The hub's public keys, the same that verify its SSO tokens. */
  keys: JWTVerifyGetKey
  issuer: string
  /** This application's id: the `aud` the hub addresses it by. */
  audience: string
  now: () => Date
}

/**
 * Verifies a SET of the hub (docs/security-events.md): the `secevent+jwt` type, a signature by an
 * allowed algorithm and a published key, `iss`, `aud`, an `iat` no older than
 * SECURITY_EVENT_MAX_AGE_SECONDS and not in the future (with the clock skew), a `jti`, and one
 * event whose subject is an opaque identifier, agreeing with `sub_id` when that is present.
 * Every refusal is a SecurityEventRefused; a failure to fetch the keys is thrown as it is.
 */
export function createSecurityEventVerifier({ keys, issuer, audience, now }: SecurityEventVerifierOptions) {
  return async (token: string): Promise<VerifiedSecurityEvent> => {
    let payload
    try {
      ;({ payload } = await verifyHubToken(
        token,
        { keys, issuer, audience, now },
        { type: SECURITY_EVENT_TOKEN_TYPE, maxAgeSeconds: SECURITY_EVENT_MAX_AGE_SECONDS, requiredClaims: ['iat', 'jti', 'events'] }
      ))
    } catch (error) {
      throw refusalFor(error)
    }
    const events = payload.events
    const entries = typeof events === 'object' && events !== null && !Array.isArray(events) ? Object.entries(events) : []
    const [event] = entries
    if (entries.length !== 1 || !event) throw new SecurityEventRefused('invalid_request', 'events must hold exactly one event')
    const [eventType, body] = event
    const subject = (body as { subject?: unknown } | null)?.subject
    if (!isOpaqueSubject(subject)) throw new SecurityEventRefused('invalid_request', 'the event must name its subject as an opaque identifier')
    if (payload.sub_id !== undefined && !(isOpaqueSubject(payload.sub_id) && payload.sub_id.id === subject.id)) {
      throw new SecurityEventRefused('invalid_request', 'sub_id and the event name different subjects')
    }
    if (typeof payload.jti !== 'string' || payload.jti === '') throw new SecurityEventRefused('invalid_request', 'jti must be a string')
    const occurredAt = typeof payload.toe === 'number' ? payload.toe : (payload.iat as number)
    return { jti: payload.jti, eventType, userId: subject.id, occurredAt }
  }
}

export type SecurityEventVerifier = ReturnType<typeof createSecurityEventVerifier>

function isOpaqueSubject(value: unknown): value is OpaqueSubject {
  const subject = value as Partial<OpaqueSubject> | null | undefined
  return typeof subject === 'object' && subject !== null && subject.format === 'opaque' && typeof subject.id === 'string' && subject.id !== ''
}

/** jose's verdict as an RFC 8935 error code; not being able to fetch the keys is no verdict on the token. */
function refusalFor(error: unknown): unknown {
  if (!(error instanceof errors.JOSEError) || error instanceof errors.JWKSTimeout) return error
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return new SecurityEventRefused('invalid_key', 'the signature does not verify with the hub\'s keys')
  }
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'iss') return new SecurityEventRefused('invalid_issuer', error.message)
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') return new SecurityEventRefused('invalid_audience', error.message)
  return new SecurityEventRefused('invalid_request', error.message)
}
