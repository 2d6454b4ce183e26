import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { LRUCache } from 'lru-cache'
import type { Database, SessionRow } from '../../../shared/database/schema.js'
import { type SessionCookieClaims, signSessionCookie, verifySessionCookie } from '../security/session-cookie-value.js'
import type { VerifiedIdentity } from '../tokens/identity.js'
import type { SessionsRepository } from './repository.js'

/** The auth cookie lives an hour; the client refreshes it every 45 minutes. */
export const AUTH_COOKIE_LIFETIME_MS = 60 * 60 * 1000

/**
 * How long an instance trusts a session row it has read. Another instance's sign-out is seen
 * within this time; the instance that signs out drops its copy at once.
 */
export const SESSION_CACHE_TTL_MS = 4_000
const SESSION_CACHE_MAX_ENTRIES = 10_000
/**
 * Sessions this instance revoked lately. A read that began before the row was deleted returns
 * it afterwards; this list keeps such a read from caching it again. A read outlives the row by
 * milliseconds, so the cache's own time-to-live is ample; the bound keeps a burst of sign-outs
 * from growing memory without end (past it, the oldest is forgotten first).
 */
const REVOKED_MAX_ENTRIES = 10_000
/**
 * A user's sessions beyond this many, oldest first, end when another starts: a loop of correct
 * logins must not grow the table (and every dashboard's list) without bound.
 */
export const MAX_SESSIONS_PER_USER = 100

export interface ActiveSession {
  id: string
  userId: string
  email: string
  emailVerified: boolean
  /** The absolute end of the session. */
  expiresAt: Date
}

export interface IssuedCookie {
  value: string
  expiresAt: Date
}

export interface SessionOptions {
  repository: SessionsRepository
  cookieKeys: readonly string[]
  maxAgeSeconds: number
  /**
   * The built-in provider's sessions start only for an account that exists and is enabled, checked
   * as the row is inserted (see `insertForEnabledAccount`), so that no login or set-cookie already
   * past its own check can leave a session behind `users:disable`. An external provider's users
   * have no account here.
   */
  enabledAccountsOnly: boolean
  /** The clock the cache's time-to-live runs on, so tests can move it. */
  now: () => Date
}

/**
 * Sessions as rows: the signed cookie proves possession, the row decides validity, sign-out
 * deletes the row. `validate` is the one function every protected request goes through.
 */
export function createSessions({ repository, cookieKeys, maxAgeSeconds, enabledAccountsOnly, now }: SessionOptions) {
  const recentlyRead = new LRUCache<string, SessionRow>({
    max: SESSION_CACHE_MAX_ENTRIES,
    ttl: SESSION_CACHE_TTL_MS,
    perf: { now: () => now().getTime() }
  })
  const recentlyRevoked = new LRUCache<string, true>({
    max: REVOKED_MAX_ENTRIES,
    ttl: SESSION_CACHE_TTL_MS,
    perf: { now: () => now().getTime() }
  })

  const cookieFor = (session: { id: string; userId: string; expiresAt: Date }, now: Date): IssuedCookie => {
    // Never past the absolute lifetime.
    const expiresAt = new Date(Math.min(now.getTime() + AUTH_COOKIE_LIFETIME_MS, session.expiresAt.getTime()))
    return { value: signSessionCookie({ userId: session.userId, sessionId: session.id, expiresAt }, cookieKeys), expiresAt }
  }

  const findRow = async (id: string): Promise<SessionRow | undefined> => {
    const cached = recentlyRead.get(id)
    if (cached) return cached
    const row = await repository.findById(id)
    if (!row || recentlyRevoked.has(id)) return undefined
    recentlyRead.set(id, row)
    return row
  }

  /** Forgets sessions deleted from the database, so this instance stops trusting its copy at once. */
  const forget = (ids: readonly string[]) => {
    for (const id of ids) {
      recentlyRevoked.set(id, true)
      recentlyRead.delete(id)
    }
  }

  return {
    /** The cookie's claims when its signature and expiry hold; no database read. */
    claimsOf(cookieValue: string | undefined, now: Date): SessionCookieClaims | null {
      return cookieValue ? verifySessionCookie(cookieValue, cookieKeys, now) : null
    },

    /**
     * Starts a session, ending the user's oldest beyond `MAX_SESSIONS_PER_USER`; null when the
     * built-in account is disabled or gone by the time the row is inserted.
     */
    async start(identity: VerifiedIdentity, userAgent: string, now: Date): Promise<{ session: ActiveSession; cookie: IssuedCookie } | null> {
      const timestamp = now.toISOString()
      const expiresAt = new Date(now.getTime() + maxAgeSeconds * 1000)
      const row: SessionRow = {
        id: randomBytes(24).toString('base64url'),
        userId: identity.userId,
        email: identity.email,
        emailVerified: identity.emailVerified ? 1 : 0,
        userAgent,
        createdAt: timestamp,
        expiresAt: expiresAt.toISOString(),
        lastSeenAt: timestamp,
        // Signing in is a proof of who holds the session, as recent as it gets.
        authenticatedAt: timestamp
      }
      await repository.deleteExpiredOf(identity.userId, timestamp)
      if (enabledAccountsOnly) {
        if (!(await repository.insertForEnabledAccount(row))) return null
      } else {
        await repository.insert(row)
      }
      forget(await repository.deleteAllButNewestOf(row.userId, row.id, MAX_SESSIONS_PER_USER))
      const session = { id: row.id, userId: row.userId, email: row.email, emailVerified: identity.emailVerified, expiresAt }
      return { session, cookie: cookieFor(session, now) }
    },

    /**
     * Whether this user's session is still open, read from the database rather than this instance's
     * copy: for set-cookie, which must not accept the ID token of a session signed out elsewhere.
     */
    async isOpen(sessionId: string, userId: string, now: Date): Promise<boolean> {
      const row = await repository.findById(sessionId)
      return row !== undefined && row.userId === userId && Date.parse(row.expiresAt) > now.getTime()
    },

    /** The live session behind a cookie value, or null: bad signature, stale cookie, revoked or ended session. */
    async validate(cookieValue: string | undefined, now: Date): Promise<ActiveSession | null> {
      const claims = this.claimsOf(cookieValue, now)
      if (!claims) return null
      const row = await findRow(claims.sessionId)
      if (!row || row.userId !== claims.userId || Date.parse(row.expiresAt) <= now.getTime()) return null
      return { id: row.id, userId: row.userId, email: row.email, emailVerified: row.emailVerified === 1, expiresAt: new Date(row.expiresAt) }
    },

    async refresh(session: ActiveSession, now: Date): Promise<IssuedCookie> {
      await repository.touch(session.id, now.toISOString())
      return cookieFor(session, now)
    },

    /**
     * Deletes the row, then forgets it: dropping the cached copy first would let a read still in
     * flight put it back, and the revoked session would pass here until the copy expired.
     */
    async revoke(sessionId: string): Promise<void> {
      recentlyRevoked.set(sessionId, true)
      await repository.delete(sessionId)
      recentlyRead.delete(sessionId)
    },

    /**
     * Ends every session of the user but `keptId` ("sign out everywhere else"); answers how many
     * ended. Forgotten after the delete, as the session cap does: a read in flight then finds them
     * revoked and cannot cache them again. In a transaction (`executor`) they are forgotten before it
     * commits: should it roll back, this instance distrusts them for 4 s, never the other way round.
     */
    async revokeAllOfExcept(userId: string, keptId: string, executor?: Kysely<Database>): Promise<number> {
      const ended = await repository.deleteAllOfExcept(userId, keptId, executor)
      forget(ended)
      return ended.length
    },

    /**
     * Ends every session of the user (a password reset, an administrator's sign-out); answers how
     * many ended. Forgotten after the delete, as above, in a transaction (`executor`) too.
     */
    async revokeAllOf(userId: string, executor?: Kysely<Database>): Promise<number> {
      const ended = await repository.deleteAllOf(userId, executor)
      forget(ended)
      return ended.length
    }
  }
}

export type Sessions = ReturnType<typeof createSessions>
