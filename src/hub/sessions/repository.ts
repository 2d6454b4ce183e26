import type { Kysely } from 'kysely'
import type { Database, SessionRow } from '../../shared/database/schema.js'

export function createSessionsRepository(db: Kysely<Database>) {
  return {
    async insert(session: SessionRow): Promise<void> {
      await db.insertInto('sessions').values(session).execute()
    },
    /** The hot path's one read, by primary key. */
    findById(id: string): Promise<SessionRow | undefined> {
      return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst()
    },
    async touch(id: string, lastSeenAt: string): Promise<void> {
      await db.updateTable('sessions').set({ lastSeenAt }).where('id', '=', id).execute()
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', id).execute()
    },
    /** A user's sessions that have not ended, newest first, for the dashboard. */
    listActiveOf(userId: string, now: string): Promise<SessionRow[]> {
      return db.selectFrom('sessions').selectAll().where('userId', '=', userId).where('expiresAt', '>', now).orderBy('createdAt', 'desc').execute()
    },
    /** Sweeps a user's ended sessions when they sign in again, so the table does not grow without end. */
    async deleteExpiredOf(userId: string, now: string): Promise<void> {
      await db.deleteFrom('sessions').where('userId', '=', userId).where('expiresAt', '<=', now).execute()
    }
  }
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>
