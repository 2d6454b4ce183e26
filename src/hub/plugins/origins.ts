import cors, { type FastifyCorsOptions } from '@fastify/cors'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { forbidden } from '../../shared/errors.js'
import { pathOf } from '../request-path.js'
import { CSRF_HEADER } from '../cookies.js'
import { CSP_REPORT_PATH } from '../security/security-headers.js'

export interface OriginOptions {
  /** Exact origins (scheme://host[:port]) allowed to call /api/* from a browser, the hub's own included. */
  allowedOrigins: readonly string[]
}

/** How long a browser may reuse a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600

/**
 * First stage of the pipeline: a browser request to /api/* from an origin not on the list is
 * refused (403) before anything else runs. Requests without an Origin header (same-origin GETs,
 * server-to-server calls) pass; CSRF and the cookie's SameSite cover those. CSP reports are
 * excepted since browsers send them from wherever the page was framed or opened.
 *
 * Allowed origins then get CORS with credentials from @fastify/cors: it reflects the origin,
 * adds `Vary: Origin` and answers preflights with 204.
 */
export const origins = fp<OriginOptions>(
  async function origins(app: FastifyInstance, { allowedOrigins }) {
    const allowed = new Set(allowedOrigins)
    app.addHook('onRequest', async (request) => {
      const path = pathOf(request)
      if (!path.startsWith('/api/') || path === CSP_REPORT_PATH) return
      const origin = request.headers.origin
      if (origin !== undefined && !allowed.has(origin)) throw forbidden('Origin not allowed')
    })
    const corsOptions: FastifyCorsOptions = {
      origin: [...allowed],
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['content-type', CSRF_HEADER],
      maxAge: PREFLIGHT_MAX_AGE_SECONDS
    }
    // An OPTIONS request without Origin and Access-Control-Request-Method is no preflight: it is
    // routed like any request (a JSON 404), not refused with @fastify/cors's text/plain 400.
    const forPreflights = { ...corsOptions, preflight: true }
    const forOthers = { ...corsOptions, preflight: false }
    // Registered after the check above, so its hook (and its preflight answer) runs second.
    await app.register(cors, { delegator: async (request: FastifyRequest) => (isPreflight(request) ? forPreflights : forOthers) })
  },
  { name: 'origins' }
)

function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined
}
