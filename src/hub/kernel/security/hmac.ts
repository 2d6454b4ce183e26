import { createHmac, timingSafeEqual } from 'node:crypto'
import { LRUCache } from 'lru-cache'

/** HMAC-SHA256 of `message` under `key`, base64url. */
export function hmac(key: string, message: string): string {
  return createHmac('sha256', key).update(message).digest('base64url')
}

/** Equality that takes the same time wherever the strings differ (lengths are not secret). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * Pairs of message and MAC already found valid, per key set. A signed-in browser presents the same
 * auth cookie and CSRF token on every request, and each HMAC costs a run through OpenSSL that, on a
 * busy server, is a tenth of a session-checked request (docs/performance.md). Whether a MAC is
 * valid under a fixed set of keys never changes, so the answer is kept; only valid pairs are, so
 * forged ones cannot crowd them out, and a hit needs the exact pair, so it tells nobody anything
 * they did not already hold. Expiry, the session row and everything else are checked every time.
 */
const VERIFIED_PAIRS_MAX_ENTRIES = 10_000
const verifiedPairs = new WeakMap<readonly string[], LRUCache<string, true>>()

function verifiedPairsUnder(keys: readonly string[]): LRUCache<string, true> {
  let pairs = verifiedPairs.get(keys)
  if (!pairs) {
    pairs = new LRUCache<string, true>({ max: VERIFIED_PAIRS_MAX_ENTRIES })
    verifiedPairs.set(keys, pairs)
  }
  return pairs
}

/** True when `mac` is the HMAC of `message` under any of `keys` (the first signs; older ones still verify). */
export function verifyHmac(keys: readonly string[], message: string, mac: string): boolean {
  const pairs = verifiedPairsUnder(keys)
  // The MAC's length first, so that no other split of the same characters names this pair.
  const pair = `${mac.length}:${mac}${message}`
  if (pairs.get(pair)) return true
  let valid = false
  // Every key is tried, so the time taken does not tell which one matched.
  for (const key of keys) valid = constantTimeEqual(hmac(key, message), mac) || valid
  if (valid) pairs.set(pair, true)
  return valid
}
