import type { CookieSerializeOptions } from '@fastify/cookie'
import { hmac, verifyHmac } from '../../hub/kernel/security/hmac.js'

/**
 * The task manager's cookies. Browsers do not tell ports apart, so on localhost the hub's cookies
 * reach the task manager and the other way round: every name here is its own (`lang` alone is
 * shared on purpose, so one language switch serves both).
 */
export const SESSION_COOKIE = 'tasks-session'
export const CSRF_COOKIE = 'tasks-csrf'
export const SIGN_IN_COOKIE = 'tasks-sign-in'
/** The hidden field of every form that changes something: it repeats the CSRF cookie. */
export const CSRF_FIELD = '_csrf'

/** `<value>.<hmac>`: a cookie the task manager wrote, unchanged. */
export function signCookieValue(keys: readonly string[], name: string, value: string): string {
  const [key] = keys
  if (!key) throw new Error('No cookie signing key')
  return `${value}.${hmac(key, `${name}:${value}`)}`
}

/** The value of a signed cookie, or null when it is missing or its signature does not hold. */
export function unsignCookieValue(keys: readonly string[], name: string, signed: string | undefined): string | null {
  if (signed === undefined) return null
  const separator = signed.lastIndexOf('.')
  if (separator <= 0) return null
  const value = signed.slice(0, separator)
  return verifyHmac(keys, `${name}:${value}`, signed.slice(separator + 1)) ? value : null
}

/** Lax, so that the hub's redirect back (a top-level GET) carries it; HttpOnly: no script reads it. */
export function privateCookieOptions(secure: boolean, maxAgeSeconds: number, path = '/'): CookieSerializeOptions {
  return { path, httpOnly: true, sameSite: 'lax', secure, maxAge: maxAgeSeconds }
}

/** What a cookie is deleted with: its attributes but the lifetime, so over https the deletion is Secure too. */
export function clearedCookieOptions(secure: boolean, path = '/'): CookieSerializeOptions {
  return { path, httpOnly: true, sameSite: 'lax', secure }
}
