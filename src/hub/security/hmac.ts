import { createHmac, timingSafeEqual } from 'node:crypto'

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

/** True when `mac` is the HMAC of `message` under any of `keys` (the first signs; older ones still verify). */
export function verifyHmac(keys: readonly string[], message: string, mac: string): boolean {
  let valid = false
  // Every key is tried, so the time taken does not tell which one matched.
  for (const key of keys) valid = constantTimeEqual(hmac(key, message), mac) || valid
  return valid
}
