import { randomUUID } from 'node:crypto'
import { type Kysely, PostgresAdapter, type Selectable } from 'kysely'
import type { Database, SecurityEventOutboxTable } from '../../../shared/database/schema.js'
import type { SecurityEventType } from '../../../shared/security-events/security-event-token.js'

/** An event as the sender takes it from the outbox: its row, whose `attempts` count the one just claimed. */
export type PendingSecurityEvent = Selectable<SecurityEventOutboxTable>

/** Longer than a claimed batch's deliveries can take (see sender.ts), so an event is taken again only from a sender that crashed. */
export const SECURITY_EVENT_CLAIM_MS = 60_000

/**
 * The durable outbox of security events. `record` writes one row per application that names an
 * events endpoint, in the caller's transaction, so an event exists exactly when its change
 * committed; the sender (sender.ts) deletes a row once the application has answered 202.
 */
export function createSecurityEventOutbox(db: Kysely<Database>, applications: readonly string[]) {
  const onPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    /** Records the event for every application that takes events; pass the transaction of the change. */
    async record(executor: Kysely<Database>, eventType: SecurityEventType, userId: string, now: Date): Promise<void> {
      if (applications.length === 0) return
      const at = now.toISOString()
      await executor
        .insertInto('securityEventOutbox')
        .values(applications.map((applicationId) => ({ id: randomUUID(), applicationId, eventType, userId, createdAt: at, attempts: 0, nextAttemptAt: at, lastError: null })))
        .execute()
    },

    /**
     * Claims up to `limit` due events, oldest first, by pushing their next attempt past the claim and
     * counting the attempt in one statement; on PostgreSQL hubs sharing the database skip each
     * other's rows (FOR UPDATE SKIP LOCKED), SQLite has one writer at a time.
     */
    claimDue(now: Date, limit: number): Promise<PendingSecurityEvent[]> {
      const due = db
        .selectFrom('securityEventOutbox')
        .select('id')
        .where('nextAttemptAt', '<=', now.toISOString())
        .orderBy('nextAttemptAt')
        .limit(limit)
        .$if(onPostgres, (query) => query.forUpdate().skipLocked())
      return db
        .updateTable('securityEventOutbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), nextAttemptAt: new Date(now.getTime() + SECURITY_EVENT_CLAIM_MS).toISOString() }))
        .where('id', 'in', due)
        .returningAll()
        .execute()
    },

    async markDelivered(id: string): Promise<void> {
      await db.deleteFrom('securityEventOutbox').where('id', '=', id).execute()
    },

    async retryLater(id: string, nextAttemptAt: Date, reason: string): Promise<void> {
      await db.updateTable('securityEventOutbox').set({ nextAttemptAt: nextAttemptAt.toISOString(), lastError: reason }).where('id', '=', id).execute()
    },

    /** Every undelivered event, oldest first, for `events:pending`. */
    pending(): Promise<PendingSecurityEvent[]> {
      return db.selectFrom('securityEventOutbox').selectAll().orderBy('createdAt').orderBy('id').execute()
    }
  }
}

export type SecurityEventOutbox = ReturnType<typeof createSecurityEventOutbox>
