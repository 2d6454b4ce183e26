import { constantTimeEqual, hmac, verifyHmac } from './hmac.js'
import { pooledRandomBytes } from './random-pool.js'

/**
 * CSRF tokens for the double-submit cookie, bound to the session:
 *
 *   <nonce>.<base64url(hmac(key, "csrf:" + sessionId + ":" + nonce))>
 *
 * Before sign-in the session id is empty. A token planted by a sibling site (which can write
 * cookies for our domain but does not hold the key) or one minted for another session fails
 * the binding once the victim has a session.
 */
const NONCE = /^[A-Za-z0-9_-]{22,64}$/
const ANONYMOUS = ''

function bindingMessage(sessionId: string, nonce: string): string {
  return `csrf:${sessionId}:${nonce}`
}

export function issueCsrfToken(keys: readonly string[], sessionId: string | null): string {
  const [signingKey] = keys
  if (!signingKey) throw new Error('No cookie signing key')
  const nonce = pooledRandomBytes(18).toString('base64url')
  return `${nonce}.${hmac(signingKey, bindingMessage(sessionId ?? ANONYMOUS, nonce))}`
}

/** True when `token` was issued by us for this session (or, with no session, for none). */
export function isCsrfTokenBound(token: string, keys: readonly string[], sessionId: string | null): boolean {
  const [nonce = '', mac = '', ...rest] = token.split('.')
  if (rest.length > 0 || !NONCE.test(nonce) || mac === '') return false
  return verifyHmac(keys, bindingMessage(sessionId ?? ANONYMOUS, nonce), mac)
}

/** The double-submit check: the header repeats the cookie exactly. */
export function csrfHeaderMatches(cookie: string | undefined, header: string | undefined): boolean {
  return cookie !== undefined && cookie !== '' && header !== undefined && constantTimeEqual(cookie, header)
}
