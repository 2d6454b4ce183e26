import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { forbidden } from '../../../shared/errors.js'
import { CSRF_COOKIE, CSRF_HEADER, csrfCookieOptions } from '../http/cookies.js'
import { csrfHeaderMatches, isCsrfTokenBound, issueCsrfToken } from '../security/csrf-token.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: the route takes state-changing requests without the CSRF header, because its
     * callers hold no token yet (sign-in, sign-up) or prove themselves otherwise (a signature, a
     * client's credentials, a form's own token). Every other route, and every unknown path, is
     * checked. `'form'`: an HTML form of the hub's pages (the console's) that works without script,
     * so without the header: the token comes in its `_csrf` field instead, checked the same way
     * once the body is read (`reply.formCsrfToken()` gives the page the value to put there).
     */
    csrf?: false | 'form'
  }
  interface FastifyReply {
    /** The CSRF token a page puts in its forms' `_csrf` field: the request's when bound to its session, else a fresh one this response sets. */
    formCsrfToken(): string
  }
}

/** The field of a form that carries the CSRF token (`csrf: 'form'`). */
export const CSRF_FORM_FIELD = '_csrf'

export interface CsrfOptions {
  cookieKeys: readonly string[]
  secureCookies: boolean
  /** The session id a request's auth cookie carries when its signature holds (no database read). */
  sessionIdOf: (request: FastifyRequest) => string | null
}

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Second stage: the double-submit check on every state-changing request, unless its route says
 * `config: { csrf: false }`, and a fresh token cookie on any response to a request that lacks a
 * valid one (refusals, 404s, preflights and errors found before routing included). With a session
 * the token must also be bound to it; without one, equality is all there is to check.
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

    const refusal = (request: FastifyRequest, given: unknown) => {
      if (!csrfHeaderMatches(request.cookies[CSRF_COOKIE], typeof given === 'string' ? given : undefined)) return forbidden('CSRF token missing or incorrect')
      if (sessionIdFor(request) !== null && !holdsBoundToken(request)) return forbidden('CSRF token does not belong to this session')
      return undefined
    }

    // Callback hooks, not async ones: they run on every request and should cost no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      // Every read passes here: it is let through before its route's options are read.
      if (!STATE_CHANGING_METHODS.has(request.method)) return done()
      const { csrf } = app.pipelineOptionsOf(request)
      if (csrf === false || csrf === 'form') return done()
      done(refusal(request, request.headers[CSRF_HEADER]))
    })
    // A form's token is in its body, read only after this stage: checked before validation, by a
    // hook of each form's route alone, so that no other request pays for it.
    const formCheck: preValidationHookHandler = (request, _reply, done) => {
      if (!STATE_CHANGING_METHODS.has(request.method)) return done()
      const body = request.body
      done(refusal(request, typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[CSRF_FORM_FIELD] : undefined))
    }
    app.addHook('onRoute', (route) => {
      if (route.config?.csrf !== 'form') return
      route.preValidation = [formCheck, ...[route.preValidation ?? []].flat()]
    })
    const formTokens = new WeakMap<FastifyRequest, string>()
    app.decorateReply('formCsrfToken', function formCsrfToken(this: FastifyReply) {
      const { request } = this
      const cookie = request.cookies[CSRF_COOKIE]
      if (cookie !== undefined && holdsBoundToken(request)) return cookie
      let token = formTokens.get(request)
      if (token === undefined) {
        token = issueCsrfToken(cookieKeys, sessionIdFor(request))
        formTokens.set(request, token)
        this.header('set-cookie', `${CSRF_COOKIE}=${token}${tokenCookieAttributes}`)
      }
      return token
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
  { name: 'csrf', dependencies: ['route-options'] }
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
