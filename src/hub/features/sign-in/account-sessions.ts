import { Type } from 'typebox'
import { notFound } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { AccountSessions } from '../../kernel/sessions/account-sessions.js'
import { deviceName } from '../../kernel/http/device.js'
import { sessionHandle } from '../../kernel/sessions/session-handle.js'
import type { SessionCookies } from '../../kernel/sessions/session-cookies.js'

const SESSIONS_PATH = '/api/account/sessions'

const AccountSessionResponse = Type.Object({
  id: Type.String({ description: "The session's handle: a digest of its id, never the id the auth cookie carries" }),
  current: Type.Boolean({ description: 'Whether this is the session of the request' }),
  userAgent: Type.String(),
  device: Type.Union([Type.String(), Type.Null()], { description: 'e.g. "Chrome on Linux"; null when the user agent is not recognised' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.String({ format: 'date-time', description: 'Sign-in or the last refresh of the auth cookie' })
})
const SessionsListResponse = Type.Object({ sessions: Type.Array(AccountSessionResponse, { description: 'Newest first' }) })
const SessionParams = Type.Object({ id: Type.String({ description: 'A handle from the list' }) })
const ended = { type: 'null', description: 'Ended' } as const
const tags = ['account']

export interface AccountSessionRoutesOptions {
  accountSessions: AccountSessions
  sessionCookies: SessionCookies
  audit: AuditRequest
}

/** A person's own sessions (issue 18). The session stage has already checked the cookie. */
export async function accountSessionRoutes(app: App, { accountSessions, sessionCookies, audit }: AccountSessionRoutesOptions) {
  app.get(
    SESSIONS_PATH,
    { config: { session: 'required' }, schema: { summary: 'List your sessions that have not ended', tags, response: { 200: SessionsListResponse, ...errorResponses(401) } } },
    async (request) => {
      const session = sessionOf(request)
      const sessions = await accountSessions.list(session.userId, session.id)
      return { sessions: sessions.map(({ device, ...rest }) => ({ ...rest, device: deviceName(device) })) }
    }
  )

  app.delete(
    `${SESSIONS_PATH}/:id`,
    {
      config: { session: 'required' },
      schema: {
        summary: 'End one of your sessions; ending the current one signs you out',
        tags,
        params: SessionParams,
        response: { 204: ended, ...errorResponses(401, 403, 404) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const handle = request.params.id
      if (!(await accountSessions.end(session.userId, handle))) throw notFound('Session not found')
      const current = handle === sessionHandle(session.id)
      if (current) sessionCookies.clear(reply)
      await audit(request, { userId: session.userId, type: 'session.ended', detail: { scope: 'one', session: handle, current } })
      return reply.code(204).send(null)
    }
  )

  app.delete(
    SESSIONS_PATH,
    {
      config: { session: 'required' },
      schema: {
        summary: 'End every session but the current one',
        tags,
        response: { 204: ended, ...errorResponses(401, 403) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const count = await accountSessions.endAllOthers(session.userId, session.id)
      await audit(request, { userId: session.userId, type: 'session.ended', detail: { scope: 'others', count } })
      return reply.code(204).send(null)
    }
  )
}
