import { type Kysely, PostgresAdapter, sql } from 'kysely'
import type { Database, SessionRow } from '../../../shared/database/schema.js'

export function createSessionsRepository(db: Kysely<Database>) {
  const onPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    async insert(session: SessionRow): Promise<void> {
      await db.insertInto('sessions').values(session).execute()
    },
    /**
     * Inserts the session only if its built-in account exists and is enabled, checked by the insert
     * itself (INSERT ... SELECT FROM users); false when it is not. `users:disable` sets the flag and
     * deletes the sessions in one transaction. On PostgreSQL the account's row is read FOR SHARE, so
     * this insert either waits for that transaction and then finds the flag set, or commits first
     * and its session is among those deleted. SQLite runs one writer at a time: the insert sees the
     * flag as it was before the whole transaction or after it.
     */
    async insertForEnabledAccount(session: SessionRow): Promise<boolean> {
      const columns = Object.keys(session) as (keyof SessionRow)[]
      const result = await db
        .insertInto('sessions')
        .columns(columns)
        .expression(
          db
            .selectFrom('users')
            .select(columns.map((column) => sql.val(session[column]).as(column)))
            .where('id', '=', session.userId)
            .where('disabled', '=', 0)
            .$if(onPostgres, (query) => query.forShare())
        )
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    /** The hot path's one read, by primary key. */
    findById(id: string): Promise<SessionRow | undefined> {
      return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst()
    },
    /** When the session's holder last proved who they are; read from the table, never a cached row. */
    async authenticatedAtOf(id: string): Promise<string | null> {
      return (await db.selectFrom('sessions').select('authenticatedAt').where('id', '=', id).executeTakeFirst())?.authenticatedAt ?? null
    },
    async recordAuthentication(id: string, authenticatedAt: string): Promise<void> {
      await db.updateTable('sessions').set({ authenticatedAt }).where('id', '=', id).execute()
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
    /** Deletes the user's sessions beyond the newest `keep`, never `newestId`; answers the ids deleted. */
    async deleteAllButNewestOf(userId: string, newestId: string, keep: number): Promise<string[]> {
      const kept = db
        .selectFrom('sessions')
        .select('id')
        .where('userId', '=', userId)
        .where('id', '<>', newestId)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(keep - 1)
      const deleted = await db
        .deleteFrom('sessions')
        .where('userId', '=', userId)
        .where('id', '<>', newestId)
        .where('id', 'not in', kept)
        .returning('id')
        .execute()
      return deleted.map(({ id }) => id)
    },
    /** Deletes every session of the user but `keptId`; answers the ids deleted. */
    async deleteAllOf(userId: string, executor: Kysely<Database> = db): Promise<string[]> {
      const deleted = await executor.deleteFrom('sessions').where('userId', '=', userId).returning('id').execute()
      return deleted.map(({ id }) => id)
    },
    /** `executor`: the caller's transaction, when the sessions end together with another change. */
    async deleteAllOfExcept(userId: string, keptId: string, executor: Kysely<Database> = db): Promise<string[]> {
      const deleted = await executor.deleteFrom('sessions').where('userId', '=', userId).where('id', '<>', keptId).returning('id').execute()
      return deleted.map(({ id }) => id)
    },
    /** Sweeps a user's ended sessions when they sign in again, so the table does not grow without end. */
    async deleteExpiredOf(userId: string, now: string): Promise<void> {
      await db.deleteFrom('sessions').where('userId', '=', userId).where('expiresAt', '<=', now).execute()
    }
  }
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>
