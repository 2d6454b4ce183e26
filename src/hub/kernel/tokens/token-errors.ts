import { errors } from 'jose'

/**
 * jose error codes that mean "this token is not acceptable" (401). Anything else, such as an
 * identity provider's JWKS that cannot be fetched, is our failure, not the caller's.
 */
const REJECTED_TOKEN_CODES = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED'
])

export function isRejectedToken(error: unknown): boolean {
  return error instanceof errors.JOSEError && REJECTED_TOKEN_CODES.has(error.code)
}

/** How far the verifier's clock may disagree with the issuer's. */
export const CLOCK_TOLERANCE_SECONDS = 30
