import type { CookieSerializeOptions } from '@fastify/cookie'

export const AUTH_COOKIE = 'service-auth-token'
export const CSRF_COOKIE = 'service-csrf-token'
export const CSRF_HEADER = 'x-csrf-token'

/** HttpOnly: page scripts never see it. Lax: sent on top-level navigation from other sites, not on their POSTs. */
export function authCookieOptions(secure: boolean, expiresAt: Date, now: Date): CookieSerializeOptions {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000))
  return { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge }
}

/** Readable by page scripts (they copy it into X-CSRF-Token); Strict: never sent by another site. */
export function csrfCookieOptions(secure: boolean): CookieSerializeOptions & { secure: boolean } {
  return { httpOnly: false, sameSite: 'strict', path: '/', secure }
}

/** Cookies are Secure unless the hub is served over plain http (a local set-up). */
export function cookiesAreSecure(publicUrl: string): boolean {
  return !publicUrl.startsWith('http:')
}
