import cors, { type FastifyCorsOptions } from '@fastify/cors'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { forbidden } from '../../../shared/errors.js'
import { pathOf } from './request-path.js'
import { CSRF_HEADER } from '../http/cookies.js'
import { CSP_REPORT_PATH } from '../security/security-headers.js'

export interface OriginOptions {
  /** Exact origins (scheme://host[:port]) allowed to call /api/* from a browser, the hub's own included. */
  allowedOrigins: readonly string[]
}

/** How long a browser may reuse a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].join(', ')
const ALLOWED_HEADERS = ['content-type', CSRF_HEADER].join(', ')

/**
 * First stage of the pipeline: a browser request to /api/* from an origin not on the list is
 * refused (403) before anything else runs. Requests without an Origin header (same-origin GETs,
 * server-to-server calls) pass; CSRF and the cookie's SameSite cover those. CSP reports are
 * excepted since browsers send them from wherever the page was framed or opened.
 *
 * Allowed origins then get CORS with credentials: the origin reflected, `Vary: Origin`, and
 * preflights answered with 204.
 */
export const origins = fp<OriginOptions>(
  async function origins(app: FastifyInstance, { allowedOrigins }) {
    const allowed = new Set(allowedOrigins)
    // Callback hooks, not async ones: they run on every request and should cost no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const origin = request.headers.origin
      if (origin === undefined || allowed.has(origin)) return done()
      const path = pathOf(request)
      done(path.startsWith('/api/') && path !== CSP_REPORT_PATH ? forbidden('Origin not allowed') : undefined)
    })
    // @fastify/cors, with options built once, adds the CORS headers to every answer. A preflight
    // (OPTIONS with Origin and Access-Control-Request-Method) is answered by the hook above it
    // instead: the plugin answers every OPTIONS request as a preflight or none, while an OPTIONS
    // request that is no preflight must be routed like any request (a JSON 404), not refused with
    // its text/plain 400. Choosing its options per request did that, at the price of the plugin
    // normalizing them again on every request (docs/performance.md, issue 21).
    app.addHook('onRequest', (request, reply, done) => {
      if (!isPreflight(request)) return done()
      const origin = request.headers.origin
      reply.header('vary', 'Origin')
      if (origin !== undefined && allowed.has(origin)) reply.header('access-control-allow-origin', origin)
      reply
        .header('access-control-allow-credentials', 'true')
        .header('access-control-allow-methods', ALLOWED_METHODS)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
        .header('content-length', '0')
        .code(204)
        .send()
    })
    const corsOptions: FastifyCorsOptions = { origin: [...allowed], credentials: true, preflight: false }
    // Registered after the hooks above, so its hook runs last, on what they let through.
    await app.register(cors, corsOptions)
  },
  { name: 'origins' }
)

function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined
}
