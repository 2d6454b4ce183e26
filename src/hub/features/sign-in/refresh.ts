import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { methodNotAllowed } from '../../kernel/http/http-errors.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { RefreshResponse } from '../../kernel/http/schemas.js'
import type { SessionCookies } from '../../kernel/sessions/session-cookies.js'
import type { Sessions } from '../../kernel/sessions/sessions.js'

const REFRESH_PATH = '/api/auth/refresh'

export interface RefreshDependencies {
  sessions: Sessions
  sessionCookies: SessionCookies
  audit: AuditRequest
  now: () => Date
}

/** Renewing and ending a session. The session stage has already checked the cookie. */
export async function refreshRoutes(app: App, { sessions, sessionCookies, audit, now }: RefreshDependencies) {
  // Signed out, a path below answers 401 like the routes, not 404.
  app.unknownPaths(REFRESH_PATH, { session: 'required' })
  app.post(
    REFRESH_PATH,
    {
      config: { session: 'required' },
      schema: {
        summary: "Renew the auth cookie's expiry (never past the session's absolute lifetime)",
        tags: ['auth'],
        response: { 200: RefreshResponse, ...errorResponses(401, 403) }
      }
    },
    async (request, reply) => {
      const at = now()
      const session = sessionOf(request)
      const cookie = await sessions.refresh(session, at)
      sessionCookies.renew(reply, cookie, at)
      await audit(request, { userId: session.userId, type: 'session.refreshed' })
      return { expiresAt: cookie.expiresAt.toISOString() }
    }
  )

  app.delete(
    REFRESH_PATH,
    {
      config: { session: 'required' },
      schema: {
        summary: 'Sign out: revoke the session and clear the auth cookie',
        tags: ['auth'],
        response: { 204: { type: 'null', description: 'Signed out' }, ...errorResponses(401, 403) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      await sessions.revoke(session.id)
      sessionCookies.clear(reply)
      await audit(request, { userId: session.userId, type: 'signout' })
      return reply.code(204).send(null)
    }
  )

  // The spec's overview names GET for refresh; the endpoint list names POST. Only POST and DELETE act.
  app.route({
    method: ['GET', 'PUT', 'PATCH'],
    url: REFRESH_PATH,
    config: { session: 'required' },
    schema: { hide: true },
    handler: async (request, reply) => {
      throw methodNotAllowed(reply, request.method, ['POST', 'DELETE'])
    }
  })
}
