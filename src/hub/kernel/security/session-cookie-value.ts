import { hmac, verifyHmac } from './hmac.js'

/**
 * The auth cookie's value: the user id (as the spec says the cookie carries it), the session id
 * and the cookie's own expiry, signed with HMAC-SHA256:
 *
 *   v1.<base64url(userId)>.<sessionId>.<expires, unix seconds>.<base64url(hmac)>
 *
 * The MAC covers everything before it, so neither id nor the expiry can be changed, and a raw
 * user id, an unsigned or a stale value is refused without touching the database.
 */
export interface SessionCookieClaims {
  userId: string
  sessionId: string
  /** When the cookie stops being accepted. */
  expiresAt: Date
}

const VERSION = 'v1'
const SESSION_ID = /^[A-Za-z0-9_-]{16,128}$/
const BASE64URL = /^[A-Za-z0-9_-]+$/
const EPOCH_SECONDS = /^\d{1,12}$/
/** Longer values are not ours; refusing them early bounds the HMAC work an attacker can ask for. */
export const SESSION_COOKIE_MAX_LENGTH = 2048

export function signSessionCookie(claims: SessionCookieClaims, keys: readonly string[]): string {
  const [signingKey] = keys
  if (!signingKey) throw new Error('No cookie signing key')
  const payload = [
    VERSION,
    Buffer.from(claims.userId).toString('base64url'),
    claims.sessionId,
    String(Math.floor(claims.expiresAt.getTime() / 1000))
  ].join('.')
  return `${payload}.${hmac(signingKey, payload)}`
}

/** The claims of a well-formed, authentic, unexpired value; null for anything else. */
export function verifySessionCookie(value: string, keys: readonly string[], now: Date): SessionCookieClaims | null {
  if (value.length > SESSION_COOKIE_MAX_LENGTH) return null
  const parts = value.split('.')
  if (parts.length !== 5) return null
  const [version = '', encodedUserId = '', sessionId = '', expires = '', mac = ''] = parts
  if (version !== VERSION || !BASE64URL.test(encodedUserId) || !SESSION_ID.test(sessionId)) return null
  if (!EPOCH_SECONDS.test(expires) || !BASE64URL.test(mac)) return null
  if (!verifyHmac(keys, parts.slice(0, 4).join('.'), mac)) return null
  const expiresAt = new Date(Number(expires) * 1000)
  if (expiresAt.getTime() <= now.getTime()) return null
  return { userId: Buffer.from(encodedUserId, 'base64url').toString(), sessionId, expiresAt }
}
