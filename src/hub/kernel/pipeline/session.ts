import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { unauthorized } from '../../../shared/errors.js'
import { AUTH_COOKIE } from '../http/cookies.js'
import { isUnder, pathOf } from './request-path.js'
import { STRIPE_WEBHOOK_PATH } from '../../features/billing/paths.js'
import type { ActiveSession, Sessions } from '../sessions/sessions.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, set by the session stage on paths that need one. */
    session: ActiveSession | null
  }
}

/**
 * The spec's endpoints that need the auth cookie, by path, so routes issue 4 adds under them
 * are protected the moment they exist (and refused with 401, not 404, before that).
 */
export const SESSION_REQUIRED_PATHS = ['/api/auth/refresh', '/api/auth/generate-token', '/api/auth/reauthenticate', '/api/export', '/api/privacy', '/api/account', '/api/billing']

/** Below a protected path, but proven otherwise: Stripe signs its webhook calls. */
const SESSION_EXEMPT_PATHS: ReadonlySet<string> = new Set([STRIPE_WEBHOOK_PATH])

export interface SessionStageOptions {
  sessions: Sessions
  now: () => Date
}

/** Third stage: on protected paths, the auth cookie must lead to a live session, else 401. */
export const sessionStage = fp<SessionStageOptions>(
  async function sessionStage(app: FastifyInstance, { sessions, now }) {
    app.decorateRequest('session', null)
    // A callback hook: the paths that need no session, most of them, should cost no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const path = pathOf(request)
      if (!SESSION_REQUIRED_PATHS.some((prefix) => isUnder(path, prefix)) || SESSION_EXEMPT_PATHS.has(path)) return done()
      sessions.validate(request.cookies[AUTH_COOKIE], now()).then((session) => {
        request.session = session
        done(session ? undefined : unauthorized('Sign in required: the auth cookie is missing, invalid or expired'))
      }, done)
    })
  },
  { name: 'session-stage' }
)

/** The session of a request that passed the session stage. */
export function sessionOf(request: FastifyRequest): ActiveSession {
  if (!request.session) throw unauthorized('Sign in required')
  return request.session
}
