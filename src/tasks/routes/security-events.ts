import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import { createGrantsRepository } from '../../shared/access-grants/repository.js'
import { flushErasedPages } from '../../shared/database/erased-pages.js'
import type { Database } from '../../shared/database/schema.js'
import type { App } from '../../shared/http/server.js'
import {
  SECURITY_EVENT_CONTENT_TYPE,
  SECURITY_EVENT_TYPES,
  TASKS_SECURITY_EVENTS_PATH
} from '../../shared/security-events/security-event-token.js'
import type { TasksRepository } from '../repository.js'
import type { BrowserSessions } from '../web/sessions.js'
import { firstReceipt } from '../security-events/received-events.js'
import type { RevokedSubjects } from '../security-events/revoked-subjects.js'
import { SecurityEventRefused, type SecurityEventVerifier, type VerifiedSecurityEvent } from '../security-events/verify-security-event.js'

const KNOWN_EVENT_TYPES = new Set<string>(Object.values(SECURITY_EVENT_TYPES))

/** A SET is a few hundred bytes; anything near this is not one. */
const SET_MAX_BYTES = 16 * 1024

const SecurityEventError = Type.Object(
  {
    err: Type.Union([Type.Literal('invalid_request'), Type.Literal('invalid_key'), Type.Literal('invalid_issuer'), Type.Literal('invalid_audience')]),
    description: Type.String(),
    error: Type.String({ description: "The description again, under the name every other error of the project's has" })
  },
  { description: 'The SET is refused (RFC 8935 section 2.3); the hub does not act on the answer but keeps it for its operator' }
)

export interface SecurityEventRoutesOptions {
  db: Kysely<Database>
  tasks: TasksRepository
  revokedSubjects: RevokedSubjects
  /** The pages' sessions: both events end every one of the user's. */
  browserSessions: Pick<BrowserSessions, 'endAllOf'>
  verify: SecurityEventVerifier
  now: () => Date
}

/**
 * POST /events/hearth: the hub's security events, pushed as RFC 8935 describes (docs/security-events.md).
 * Outside the access check: the caller is the hub, proved by the token's signature.
 */
export async function securityEventRoutes(app: App, { db, tasks, revokedSubjects, browserSessions, verify, now }: SecurityEventRoutesOptions) {
  app.addContentTypeParser(SECURITY_EVENT_CONTENT_TYPE, { parseAs: 'string', bodyLimit: SET_MAX_BYTES }, (_request, body, done) => done(null, body))

  /** Acts on the event and records its `jti` in one transaction; false when the `jti` was seen before. */
  const act = (event: VerifiedSecurityEvent): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      if (!(await firstReceipt(trx, event.jti, now()))) return false
      if (KNOWN_EVENT_TYPES.has(event.eventType)) {
        revokedSubjects.revoke(event.userId, event.occurredAt)
        await browserSessions.endAllOf(event.userId, trx)
      }
      if (event.eventType === SECURITY_EVENT_TYPES.accountPurged) {
        await tasks.deleteAllOwnedBy(event.userId, trx)
        await createGrantsRepository(trx).revokeAllOf(event.userId)
      }
      return true
    })

  app.post(
    TASKS_SECURITY_EVENTS_PATH,
    {
      // The framework's own refusals (a body that is no JSON, too large, of another type) are
      // RFC 8935 errors too: the request is malformed, `invalid_request`.
      config: { errorMembers: (message) => ({ err: 'invalid_request', description: message }) },
      schema: {
        summary: "Take a security event of the hub (RFC 8417 SET, pushed as application/secevent+jwt)",
        description:
          "Both refuse the user's SSO tokens issued before the change and end their sessions in the pages; account-purged also deletes the user's tasks and access grants. Errors follow RFC 8935: {err, description}, with the description also as `error`.",
        tags: ['security events'],
        security: [],
        response: { 202: { description: 'Accepted; no body' }, 400: SecurityEventError }
      }
    },
    async (request, reply) => {
      try {
        if (typeof request.body !== 'string') throw new SecurityEventRefused('invalid_request', `the body must be a SET sent as ${SECURITY_EVENT_CONTENT_TYPE}`)
        const event = await verify(request.body.trim())
        if (!(await act(event))) throw new SecurityEventRefused('invalid_request', 'this jti was received before')
        // Committed: the purged person's tasks go from SQLite's log and file as well.
        if (event.eventType === SECURITY_EVENT_TYPES.accountPurged) await flushErasedPages(db)
      } catch (error) {
        if (!(error instanceof SecurityEventRefused)) throw error
        return reply.code(400).send({ err: error.code, description: error.message, error: error.message })
      }
      return reply.code(202).send()
    }
  )
}
