import { type JWTVerifyGetKey, errors } from 'jose'
import { EXPORT_REQUEST_LIFETIME_SECONDS, EXPORT_REQUEST_TOKEN_TYPE, EXPORT_SCOPE } from '../../shared/export/export-request.js'
import { verifyHubToken } from '../../shared/sso/token-verifier.js'

/** An export request refused: answered 401 with this text. */
export class ExportRequestRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ExportRequestRefused'
  }
}

export interface VerifiedExportRequest {
  jti: string
  /** Whose data: the hub's user id. */
  userId: string
}

export interface ExportRequestVerifierOptions {
  /** The hub's public keys, the same that verify its SSO tokens and security events. */
  keys: JWTVerifyGetKey
  issuer: string
  /** This application's id: the `aud` the hub addresses it by. */
  audience: string
  now: () => Date
}

/**
 * Verifies an export request of the hub (docs/task-manager.md, "Export"): the `hearth-export+jwt`
 * type, a signature by an allowed algorithm and a published key, `iss`, `aud`, `exp` and `iat`
 * within the clock skew and no further apart than the hub ever signs, the `export` scope, a
 * subject and a `jti`. Every refusal is an ExportRequestRefused; a failure to fetch the keys is
 * thrown as it is. Whether the `jti` was seen before is the caller's to check.
 */
export function createExportRequestVerifier({ keys, issuer, audience, now }: ExportRequestVerifierOptions) {
  return async (token: string): Promise<VerifiedExportRequest> => {
    let payload
    try {
      ;({ payload } = await verifyHubToken(
        token,
        { keys, issuer, audience, now },
        { type: EXPORT_REQUEST_TOKEN_TYPE, maxAgeSeconds: EXPORT_REQUEST_LIFETIME_SECONDS, requiredClaims: ['sub', 'exp', 'iat', 'jti', 'scope'] }
      ))
    } catch (error) {
      if (!(error instanceof errors.JOSEError) || error instanceof errors.JWKSTimeout) throw error
      throw new ExportRequestRefused(error instanceof errors.JWTExpired ? 'export request has expired' : 'export request is invalid')
    }
    const { sub, jti, scope, iat, exp } = payload
    if (typeof scope !== 'string' || !scope.split(' ').includes(EXPORT_SCOPE)) throw new ExportRequestRefused(`export request lacks the ${EXPORT_SCOPE} scope`)
    if (iat === undefined || exp === undefined || exp - iat > EXPORT_REQUEST_LIFETIME_SECONDS) throw new ExportRequestRefused('export request is invalid')
    if (!sub || typeof jti !== 'string' || jti === '') throw new ExportRequestRefused('export request is invalid')
    return { jti, userId: sub }
  }
}

export type ExportRequestVerifier = ReturnType<typeof createExportRequestVerifier>
