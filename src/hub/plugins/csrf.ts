import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { forbidden } from '../../shared/errors.js'
import { CSRF_COOKIE, CSRF_HEADER, csrfCookieOptions } from '../cookies.js'
import { csrfHeaderMatches, isCsrfTokenBound, issueCsrfToken } from '../security/csrf-token.js'
import { pathOf } from '../request-path.js'
import { CSP_REPORT_PATH } from './security-headers.js'

export interface CsrfOptions {
  cookieKeys: readonly string[]
  secureCookies: boolean
  /** The session id a request's auth cookie carries when its signature holds (no database read). */
  sessionIdOf: (request: FastifyRequest) => string | null
}

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Where a session starts (the caller holds no token yet) and where browsers post CSP reports. */
export const CSRF_EXEMPT_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/login',
  '/api/auth/set-cookie',
  '/api/auth/signup',
  CSP_REPORT_PATH
])

/**
 * Second stage: the double-submit check on every state-changing request outside the exempt
 * paths, and a fresh token cookie on any response to a request that lacks a valid one. With a
 * session the token must also be bound to it; without one, equality is all there is to check.
 */
export const csrf = fp<CsrfOptions>(
  async function csrf(app: FastifyInstance, { cookieKeys, secureCookies, sessionIdOf }) {
    app.addHook('onRequest', async (request, reply) => {
      const token = request.cookies[CSRF_COOKIE]
      const sessionId = sessionIdOf(request)
      const bound = token !== undefined && isCsrfTokenBound(token, cookieKeys, sessionId)
      if (!bound) reply.setCookie(CSRF_COOKIE, issueCsrfToken(cookieKeys, sessionId), csrfCookieOptions(secureCookies))

      if (!STATE_CHANGING_METHODS.has(request.method) || CSRF_EXEMPT_PATHS.has(pathOf(request))) return
      const header = request.headers[CSRF_HEADER]
      if (!csrfHeaderMatches(token, typeof header === 'string' ? header : undefined)) {
        throw forbidden('CSRF token missing or incorrect')
      }
      if (sessionId !== null && !bound) throw forbidden('CSRF token does not belong to this session')
    })
  },
  { name: 'csrf' }
)
