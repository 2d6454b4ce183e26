import type { FastifyReply, FastifyRequest } from 'fastify'
import { csrfHeaderMatches, isCsrfTokenBound, issueCsrfToken } from '../../hub/kernel/security/csrf-token.js'
import { CSRF_COOKIE, CSRF_FIELD, SESSION_COOKIE, clearedCookieOptions, privateCookieOptions, signCookieValue, unsignCookieValue } from './cookies.js'
import { type BrowserSessions, TASKS_SESSION_MAX_AGE_SECONDS } from './sessions.js'

/** The CSRF cookie lives as long as the browser does; it is renewed whenever it no longer fits the session. */
const CSRF_COOKIE_MAX_AGE_SECONDS = TASKS_SESSION_MAX_AGE_SECONDS

export interface SignedInRequest {
  userId: string
  /** The session's token: the CSRF token is bound to it. */
  token: string
}

/**
 * The `tasks-session` cookie and the forms' CSRF token, the hub's double-submit rule: the form's
 * hidden field repeats the cookie, and the token is an HMAC bound to the session, so a token
 * planted by a sibling site or minted for another session is refused.
 */
export function browserSessionCookies({ keys, secure, sessions }: { keys: readonly string[]; secure: boolean; sessions: BrowserSessions }) {
  const tokenOf = (request: FastifyRequest) => unsignCookieValue(keys, SESSION_COOKIE, request.cookies[SESSION_COOKIE])

  return {
    async signedIn(request: FastifyRequest): Promise<SignedInRequest | null> {
      const token = tokenOf(request)
      if (token === null) return null
      const session = await sessions.find(token, new Date())
      return session && { userId: session.userId, token }
    },

    async start(reply: FastifyReply, userId: string, hubSid: string | null): Promise<void> {
      const { token } = await sessions.start(userId, hubSid, new Date())
      reply.setCookie(SESSION_COOKIE, signCookieValue(keys, SESSION_COOKIE, token), privateCookieOptions(secure, TASKS_SESSION_MAX_AGE_SECONDS))
    },

    /** Ends the browser's session, if it holds one, and forgets both cookies. */
    async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const token = tokenOf(request)
      if (token !== null) await sessions.end(token)
      reply.clearCookie(SESSION_COOKIE, clearedCookieOptions(secure)).clearCookie(CSRF_COOKIE, clearedCookieOptions(secure))
    },

    /** The token the page's forms repeat: the browser's own when it is bound to this session, else a new one. */
    csrfTokenFor(request: FastifyRequest, reply: FastifyReply, session: SignedInRequest): string {
      const current = request.cookies[CSRF_COOKIE]
      if (current !== undefined && isCsrfTokenBound(current, keys, session.token)) return current
      const token = issueCsrfToken(keys, session.token)
      reply.setCookie(CSRF_COOKIE, token, { ...privateCookieOptions(secure, CSRF_COOKIE_MAX_AGE_SECONDS), sameSite: 'strict' })
      return token
    },

    /** Whether a form's field repeats the browser's CSRF cookie, and that cookie belongs to this session. */
    formIsGenuine(request: FastifyRequest, session: SignedInRequest): boolean {
      const cookie = request.cookies[CSRF_COOKIE]
      // Whatever arrived: a form, another content type, or no body at all.
      const field = (request.body as Record<string, unknown> | undefined)?.[CSRF_FIELD]
      return csrfHeaderMatches(cookie, typeof field === 'string' ? field : undefined) && cookie !== undefined && isCsrfTokenBound(cookie, keys, session.token)
    }
  }
}

export type BrowserSessionCookies = ReturnType<typeof browserSessionCookies>
