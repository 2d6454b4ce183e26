import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { unauthorized } from '../../../shared/errors.js'
import { AUTH_COOKIE } from '../http/cookies.js'
import type { Sessions } from '../sessions/sessions.js'
// The request's `session` it sets is declared beside `sessionOf`, which routes read it with.
import '../sessions/request-session.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `'required'`: a request whose auth cookie leads to no live session is answered 401 before
     * the route runs; the route reads the session with `sessionOf(request)`. The unknown paths
     * below a prefix can say the same (`app.unknownPaths`), so they answer 401, not 404, when signed out.
     */
    session?: 'required'
  }
}

export interface SessionStageOptions {
  sessions: Sessions
  now: () => Date
}

/** Third stage: on routes that require a session, the auth cookie must lead to a live one, else 401. */
export const sessionStage = fp<SessionStageOptions>(
  async function sessionStage(app: FastifyInstance, { sessions, now }) {
    app.decorateRequest('session', null)
    // A callback hook: the routes that need no session, most of them, should cost no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      if (app.pipelineOptionsOf(request).session !== 'required') return done()
      sessions.validate(request.cookies[AUTH_COOKIE], now()).then((session) => {
        request.session = session
        done(session ? undefined : unauthorized('Sign in required: the auth cookie is missing, invalid or expired'))
      }, done)
    })
  },
  { name: 'session-stage', dependencies: ['route-options'] }
)
