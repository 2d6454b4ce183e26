import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { forbidden } from '../../../shared/errors.js'
import { CSRF_COOKIE, CSRF_HEADER, csrfCookieOptions } from '../http/cookies.js'
import { csrfHeaderMatches, isCsrfTokenBound, issueCsrfToken } from '../security/csrf-token.js'
import { OIDC_PATH_PREFIX } from '../../features/oidc/paths.js'
import { isUnder, pathOf } from './request-path.js'
import { CSP_REPORT_PATH } from '../security/security-headers.js'
import { STRIPE_WEBHOOK_PATH } from '../../features/billing/paths.js'

export interface CsrfOptions {
  cookieKeys: readonly string[]
  secureCookies: boolean
  /** The session id a request's auth cookie carries when its signature holds (no database read). */
  sessionIdOf: (request: FastifyRequest) => string | null
}

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Where a session starts (the caller holds no token yet), where browsers post CSP reports, and Stripe's webhook. */
export const CSRF_EXEMPT_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/login',
  // The second step of a login holds no session either; its challenge is what it proves.
  '/api/auth/login/second-factor',
  '/api/auth/set-cookie',
  '/api/auth/signup',
  CSP_REPORT_PATH,
  // Stripe's calls carry no cookie; their signature is what they prove (docs/billing.md).
  STRIPE_WEBHOOK_PATH
])

/**
 * Second stage: the double-submit check on every state-changing request outside the exempt
 * paths, and a fresh token cookie on any response to a request that lacks a valid one
 * (refusals, 404s, preflights and errors found before routing included). With a session the
 * token must also be bound to it; without one, equality is all there is to check.
 */
export const csrf = fp<CsrfOptions>(
  async function csrf(app: FastifyInstance, { cookieKeys, secureCookies, sessionIdOf }) {
    // Both checks verify MACs, and the check and the response ask them of one request: once each.
    const sessionIds = new WeakMap<FastifyRequest, string | null>()
    const boundTokens = new WeakMap<FastifyRequest, boolean>()
    const sessionIdFor = (request: FastifyRequest): string | null => {
      if (!sessionIds.has(request)) sessionIds.set(request, sessionIdOf(request))
      return sessionIds.get(request) ?? null
    }
    const holdsBoundToken = (request: FastifyRequest): boolean => {
      let bound = boundTokens.get(request)
      if (bound === undefined) {
        const token = request.cookies[CSRF_COOKIE]
        bound = token !== undefined && isCsrfTokenBound(token, cookieKeys, sessionIdFor(request))
        boundTokens.set(request, bound)
      }
      return bound
    }

    // The token cookie's attributes never change; only its value does. Serialized once by the
    // cookie library, so a response that needs a token pays for a string, not a serializer run.
    const tokenCookieAttributes = app.serializeCookie(CSRF_COOKIE, '', csrfCookieOptions(secureCookies)).slice(CSRF_COOKIE.length + 1)
    const freshTokenCookie = (request: FastifyRequest) => `${CSRF_COOKIE}=${issueCsrfToken(cookieKeys, sessionIdFor(request))}${tokenCookieAttributes}`

    // Callback hooks, not async ones: they run on every request and should cost no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      // Every read passes here: it is let through before its path is parsed.
      if (!STATE_CHANGING_METHODS.has(request.method)) return done()
      const path = pathOf(request)
      // The OpenID Connect provider's endpoints authenticate their clients, and its forms carry their own proof (docs/oidc.md).
      if (CSRF_EXEMPT_PATHS.has(path) || isUnder(path, OIDC_PATH_PREFIX)) return done()
      const header = request.headers[CSRF_HEADER]
      if (!csrfHeaderMatches(request.cookies[CSRF_COOKIE], typeof header === 'string' ? header : undefined)) {
        return done(forbidden('CSRF token missing or incorrect'))
      }
      if (sessionIdFor(request) !== null && !holdsBoundToken(request)) return done(forbidden('CSRF token does not belong to this session'))
      done()
    })

    // On send, so that responses the earlier stages refuse carry a token too. Never on a publicly
    // cacheable response: a shared cache would hand the same Set-Cookie to everyone it serves.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!isPubliclyCacheable(reply) && !setsCsrfCookie(reply) && !holdsBoundToken(request)) reply.header('set-cookie', freshTokenCookie(request))
      done(null, payload)
    })
    // Errors answered before routing skip every hook, @fastify/cookie's parsing and writing too.
    app.addFrameworkErrorHook((request, reply) => {
      request.cookies = app.parseCookie(request.headers.cookie ?? '')
      if (!holdsBoundToken(request)) reply.header('set-cookie', freshTokenCookie(request))
    })
  },
  { name: 'csrf' }
)

function isPubliclyCacheable(reply: FastifyReply): boolean {
  return /\b(public|s-maxage)\b/i.test(String(reply.getHeader('cache-control') ?? ''))
}

/** Sign-in and sign-out set the token themselves, bound to the session they start or end. */
function setsCsrfCookie(reply: FastifyReply): boolean {
  const header = reply.getHeader('set-cookie')
  const cookies = Array.isArray(header) ? header : header === undefined ? [] : [String(header)]
  return cookies.some((cookie) => cookie.startsWith(`${CSRF_COOKIE}=`))
}
