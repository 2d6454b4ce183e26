import { type JWTVerifyGetKey, jwtVerify } from 'jose'

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout'
/** A logout token is sent the moment it is made; an old one is a replay. */
const MAX_TOKEN_AGE = '5m'

export class LogoutTokenRefused extends Error {}

export interface LogoutTokenOptions {
  keys: JWTVerifyGetKey
  issuer: string
  clientId: string
}

/**
 * A back-channel logout token (OpenID Connect Back-Channel Logout 1.0, section 2.6): signed by the
 * hub for this client, typed `logout+jwt`, with the logout event, a `sid` or a `sub`, and no
 * `nonce` (which would make it an ID token).
 */
export function logoutTokenVerifier({ keys, issuer, clientId }: LogoutTokenOptions) {
  return async (token: string): Promise<{ sid?: string; sub?: string }> => {
    let payload
    try {
      ;({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience: clientId,
        typ: 'logout+jwt',
        algorithms: ['EdDSA', 'ES256'],
        maxTokenAge: MAX_TOKEN_AGE,
        clockTolerance: 30,
        requiredClaims: ['iat', 'jti', 'events']
      }))
    } catch {
      throw new LogoutTokenRefused('The logout token is not valid')
    }
    const events = payload.events as Record<string, unknown> | undefined
    if (typeof events?.[BACKCHANNEL_LOGOUT_EVENT] !== 'object' || 'nonce' in payload) throw new LogoutTokenRefused('The token is not a logout token')
    const sid = typeof payload.sid === 'string' ? payload.sid : undefined
    const sub = typeof payload.sub === 'string' ? payload.sub : undefined
    if (sid === undefined && sub === undefined) throw new LogoutTokenRefused('The logout token names no session and no user')
    return { ...(sid === undefined ? {} : { sid }), ...(sub === undefined ? {} : { sub }) }
  }
}
