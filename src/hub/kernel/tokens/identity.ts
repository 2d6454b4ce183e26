import { createHash } from 'node:crypto'
import type { JWTPayload } from 'jose'
import { CLOCK_TOLERANCE_SECONDS } from './token-errors.js'

/** Who an ID token says the bearer is, after its signature and claims have been checked. */
export interface VerifiedIdentity {
  userId: string
  /** Empty when an external provider's token carries no email claim. */
  email: string
  /** Whether the provider has checked that the user receives mail at `email`; false when unknown. */
  emailVerified: boolean
}

/** An ID token that verified: whom it names, and what set-cookie needs to accept it only once. */
export interface VerifiedIdToken {
  identity: VerifiedIdentity
  /**
   * What makes the token single use, recorded when set-cookie accepts it: its `jti`, or its signed
   * claims when it has none (an external provider need not set one), hashed to a fixed length.
   */
  replayKey: string
  /** When the token stops verifying (`exp` plus the clock tolerance): its replay key is kept until then. */
  acceptedUntil: Date
  /** `sid`: the hub session the built-in provider issued the token with. External providers' tokens name none of ours. */
  sessionId?: string
}

/** Checks an ID token from the configured identity provider; null when it is not acceptable. */
export interface IdTokenVerifier {
  verify(idToken: string, now: Date): Promise<VerifiedIdToken | null>
}

/** The replay key and the end of acceptance of a token whose signature and claims (`exp` among them) have been checked. */
export function tokenUseOf(idToken: string, payload: JWTPayload): Pick<VerifiedIdToken, 'replayKey' | 'acceptedUntil'> {
  // The claims segment exactly as signed: a token cannot be re-encoded without breaking its signature.
  const source = typeof payload.jti === 'string' ? `jti:${payload.jti}` : `claims:${idToken.split('.')[1] ?? ''}`
  return {
    replayKey: createHash('sha256').update(source).digest('base64url'),
    acceptedUntil: new Date(((payload.exp ?? 0) + CLOCK_TOLERANCE_SECONDS) * 1000)
  }
}
