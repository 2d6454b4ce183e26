import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { SECURITY_EVENT_TYPES } from '../../../shared/security-events/security-event-token.js'
import type { SecurityEventOutbox } from '../security-events/outbox.js'
import { type Device, deviceOf } from '../http/device.js'
import type { SessionsRepository } from './repository.js'
import { sessionHandle } from './session-handle.js'
import type { Sessions } from './sessions.js'

/** A session as its owner sees it: named by its handle, never by its id. */
export interface AccountSession {
  /** The session's handle (`sessionHandle`). */
  id: string
  current: boolean
  userAgent: string
  device: Device
  createdAt: string
  lastSeenAt: string
}

export interface AccountSessionsOptions {
  db: Kysely<Database>
  repository: SessionsRepository
  sessions: Sessions
  /** Tells the applications when every other session ends (`sessions-revoked`). */
  securityEvents: SecurityEventOutbox
  now: () => Date
}

/** A person's own sessions: listing them and ending them, through the revocation sign-out uses. */
export function createAccountSessions({ db, repository, sessions, securityEvents, now }: AccountSessionsOptions) {
  const liveRowsOf = (userId: string) => repository.listActiveOf(userId, now().toISOString())
  return {
    /** The user's sessions that have not ended, newest first. */
    async list(userId: string, currentSessionId: string): Promise<AccountSession[]> {
      return (await liveRowsOf(userId)).map((row) => ({
        id: sessionHandle(row.id),
        current: row.id === currentSessionId,
        userAgent: row.userAgent,
        device: deviceOf(row.userAgent),
        createdAt: row.createdAt,
        lastSeenAt: row.lastSeenAt
      }))
    },

    /**
     * Ends the user's live session with this handle. Only the user's own sessions are searched, so
     * another user's handle is not found, exactly like one that never existed.
     */
    async end(userId: string, handle: string): Promise<boolean> {
      const row = (await liveRowsOf(userId)).find(({ id }) => sessionHandle(id) === handle)
      if (!row) return false
      await sessions.revoke(row.id)
      return true
    },

    /**
     * Ends every session of the user but the current one, and records the `sessions-revoked` event
     * for the applications in the same transaction; answers how many ended.
     */
    endAllOthers(userId: string, currentSessionId: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const ended = await sessions.revokeAllOfExcept(userId, currentSessionId, trx)
        await securityEvents.record(trx, SECURITY_EVENT_TYPES.sessionsRevoked, userId, now())
        return ended
      })
    },

    /**
     * Ends every session of the user, as `endAllOthers` does the others ("sign out everywhere"):
     * an administrator signing a person out of every device. Answers how many ended.
     */
    endAll(userId: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const ended = await sessions.revokeAllOf(userId, trx)
        await securityEvents.record(trx, SECURITY_EVENT_TYPES.sessionsRevoked, userId, now())
        return ended
      })
    }
  }
}

export type AccountSessions = ReturnType<typeof createAccountSessions>
