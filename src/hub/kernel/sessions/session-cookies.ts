import type { FastifyReply } from 'fastify'
import { AUTH_COOKIE, CSRF_COOKIE, authCookieOptions, csrfCookieOptions } from '../http/cookies.js'
import { issueCsrfToken } from '../security/csrf-token.js'
import type { IssuedCookie } from './sessions.js'

/** Writes and clears the two cookies a session travels with. */
export function createSessionCookies({ cookieKeys, secure }: { cookieKeys: readonly string[]; secure: boolean }) {
  return {
    /** The auth cookie, and a CSRF token bound to this session replacing whatever the browser held. */
    set(reply: FastifyReply, sessionId: string, cookie: IssuedCookie, now: Date): void {
      reply.setCookie(AUTH_COOKIE, cookie.value, authCookieOptions(secure, cookie.expiresAt, now))
      reply.setCookie(CSRF_COOKIE, issueCsrfToken(cookieKeys, sessionId), csrfCookieOptions(secure))
    },
    /** Renews the auth cookie's expiry; the CSRF token stays bound to the same session. */
    renew(reply: FastifyReply, cookie: IssuedCookie, now: Date): void {
      reply.setCookie(AUTH_COOKIE, cookie.value, authCookieOptions(secure, cookie.expiresAt, now))
    },
    /** Sign-out: the auth cookie cleared, and a token for no session in place of the bound one. */
    clear(reply: FastifyReply): void {
      reply.clearCookie(AUTH_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure })
      reply.setCookie(CSRF_COOKIE, issueCsrfToken(cookieKeys, null), csrfCookieOptions(secure))
    }
  }
}

export type SessionCookies = ReturnType<typeof createSessionCookies>
