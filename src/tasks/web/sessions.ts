import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../shared/database/schema.js'

/** A browser session lasts a working week at most; the hub's own session decides the rest. */
export const TASKS_SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60

export interface BrowserSession {
  userId: string
}

export type BrowserSessions = ReturnType<typeof createBrowserSessions>

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url')

/**
 * The task manager's own sessions, server-side so that they can be ended: by signing out, by the
 * hub's back-channel logout (its `sid` or `sub`) and by its `sessions-revoked` event. The token
 * lives only in the cookie; the table keeps its SHA-256.
 */
export function createBrowserSessions(db: Kysely<Database>) {
  return {
    /** Starts a session; resolves to its token, for the cookie. */
    async start(userId: string, hubSid: string | null, now: Date): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url')
      const expiresAt = new Date(now.getTime() + TASKS_SESSION_MAX_AGE_SECONDS * 1000)
      // A person's expired sessions go when they sign in again; nothing else reads them.
      await db.deleteFrom('tasksSessions').where('userId', '=', userId).where('expiresAt', '<=', now.toISOString()).execute()
      await db
        .insertInto('tasksSessions')
        .values({ tokenHash: hashOf(token), userId, hubSid, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() })
        .execute()
      return { token, expiresAt }
    },

    async find(token: string, now: Date): Promise<BrowserSession | null> {
      const row = await db
        .selectFrom('tasksSessions')
        .select('userId')
        .where('tokenHash', '=', hashOf(token))
        .where('expiresAt', '>', now.toISOString())
        .executeTakeFirst()
      return row ?? null
    },

    async end(token: string): Promise<void> {
      await db.deleteFrom('tasksSessions').where('tokenHash', '=', hashOf(token)).execute()
    },

    /** A back-channel logout: the sessions signed in under one hub session. */
    async endHubSession(hubSid: string): Promise<void> {
      await db.deleteFrom('tasksSessions').where('hubSid', '=', hubSid).execute()
    },

    async endAllOf(userId: string, executor: Kysely<Database> = db): Promise<void> {
      await executor.deleteFrom('tasksSessions').where('userId', '=', userId).execute()
    },
  }
}
