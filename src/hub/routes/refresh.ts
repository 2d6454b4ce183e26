import { errorResponses } from '../../shared/http/schemas.js'
import type { App } from '../../shared/http/server.js'
import { methodNotAllowed } from '../http-errors.js'
import { sessionOf } from '../plugins/session.js'
import { RefreshResponse } from '../schemas.js'
import type { SessionCookies } from '../sessions/session-cookies.js'
import type { Sessions } from '../sessions/sessions.js'

const REFRESH_PATH = '/api/auth/refresh'

export interface RefreshDependencies {
  sessions: Sessions
  sessionCookies: SessionCookies
  now: () => Date
}

/** Renewing and ending a session. The session stage has already checked the cookie. */
export async function refreshRoutes(app: App, { sessions, sessionCookies, now }: RefreshDependencies) {
  app.post(
    REFRESH_PATH,
    {
      schema: {
        summary: "Renew the auth cookie's expiry (never past the session's absolute lifetime)",
        tags: ['auth'],
        response: { 200: RefreshResponse, ...errorResponses(401, 403) }
      }
    },
    async (request, reply) => {
      const at = now()
      const cookie = await sessions.refresh(sessionOf(request), at)
      sessionCookies.renew(reply, cookie, at)
      return { expiresAt: cookie.expiresAt.toISOString() }
    }
  )

  app.delete(
    REFRESH_PATH,
    {
      schema: {
        summary: 'Sign out: revoke the session and clear the auth cookie',
        tags: ['auth'],
        response: { 204: { type: 'null', description: 'Signed out' }, ...errorResponses(401, 403) }
      }
    },
    async (request, reply) => {
      await sessions.revoke(sessionOf(request).id)
      sessionCookies.clear(reply)
      return reply.code(204).send(null)
    }
  )

  // The spec's overview names GET for refresh; the endpoint list names POST. Only POST and DELETE act.
  app.route({
    method: ['GET', 'PUT', 'PATCH'],
    url: REFRESH_PATH,
    schema: { hide: true },
    handler: async (request, reply) => {
      throw methodNotAllowed(reply, request.method, ['POST', 'DELETE'])
    }
  })
}
