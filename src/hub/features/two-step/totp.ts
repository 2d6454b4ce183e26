import { Secret, TOTP } from 'otpauth'

/** RFC 6238 as every authenticator app does it by default: HMAC-SHA-1, 6 digits, 30-second steps. */
const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const
/** A code of the step before or after the current one is accepted too: clocks drift, people type slowly. */
export const TOTP_WINDOW = 1
/** 160 bits, the HMAC-SHA-1 key length RFC 4226 recommends. */
const SECRET_BYTES = 20
const ISSUER = 'Hearth'

export const CODE_PATTERN = /^\d{6}$/

/** A new secret, base32 as authenticator apps take it typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32
}

/** The `otpauth://totp/...` URI of the QR code an authenticator app scans. */
export function otpauthUri(secret: string, accountName: string): string {
  return new TOTP({ ...TOTP_PARAMETERS, issuer: ISSUER, label: accountName, secret: Secret.fromBase32(secret) }).toString()
}

/**
 * The time step (RFC 6238's T) this code belongs to, within one step of `now`, or null when it
 * matches none. The caller refuses a step it has already accepted: the library does not know that.
 */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const timestamp = now.getTime()
  const delta = TOTP.validate({ ...TOTP_PARAMETERS, secret: Secret.fromBase32(secret), token: code, timestamp, window: TOTP_WINDOW })
  return delta === null ? null : TOTP.counter({ period: TOTP_PARAMETERS.period, timestamp }) + delta
}

/** The code of `now`'s step: for tests, which play the authenticator app. */
export function totpCode(secret: string, now: Date): string {
  return TOTP.generate({ ...TOTP_PARAMETERS, secret: Secret.fromBase32(secret), timestamp: now.getTime() })
}
