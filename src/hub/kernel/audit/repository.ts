import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { AuditEventsTable, Database } from '../../../shared/database/schema.js'
import { daysBefore } from '../../../shared/time.js'
import { RETENTION_DAYS } from './retention.js'
import type { AuditEventInput } from './events.js'


export type AuditTrail = ReturnType<typeof createAuditTrail>

/** The append-only audit trail: written by events, read by the export, pruned by retention. */
export function createAuditTrail(db: Kysely<Database>) {
  const insert = async (rows: AuditEventsTable[]): Promise<void> => {
    await db.insertInto('auditEvents').values(rows).execute()
  }
  return {
    /**
     * Stamped now unless `at` says when it happened, as it is called (concurrent requests' events
     * take the order of their calls, not of their inserts). Several events often share a
     * millisecond; their ids, UUIDv7 that this process generates in increasing order, keep them in
     * the order they were recorded.
     */
    async record(event: AuditEventInput, at: Date = new Date()): Promise<void> {
      await insert([auditEventRow(event, at)])
    },

    /** Rows from `auditEventRow`, stored by one INSERT: for events recorded together (`auditRequests`). */
    insert,

    /** Oldest first, as a trail reads; within one millisecond, in the order recorded. */
    eventsOf(userId: string) {
      return db.selectFrom('auditEvents').selectAll().where('userId', '=', userId).orderBy('createdAt').orderBy('id')
    },

    /** Drops one user's events older than their retention. */
    async pruneUser(userId: string, activityLogDays: number, now = new Date()): Promise<void> {
      await db.deleteFrom('auditEvents').where('userId', '=', userId).where('createdAt', '<', daysBefore(now, activityLogDays)).execute()
    },

    /**
     * Drops every event older than its user's retention: one delete per distinct retention in
     * use, and one for the users who kept the default without saving settings.
     */
    async pruneAll(now = new Date()): Promise<void> {
      const retentions = await db.selectFrom('privacySettings').select('activityLogDays').distinct().execute()
      for (const { activityLogDays } of retentions) {
        await db
          .deleteFrom('auditEvents')
          .where('createdAt', '<', daysBefore(now, activityLogDays))
          .where('userId', 'in', db.selectFrom('privacySettings').select('userId').where('activityLogDays', '=', activityLogDays))
          .execute()
      }
      await db
        .deleteFrom('auditEvents')
        .where('createdAt', '<', daysBefore(now, RETENTION_DAYS.default))
        .where('userId', 'not in', db.selectFrom('privacySettings').select('userId'))
        .execute()
    }
  }
}

/** An event as stored: its id and time given as it is recorded, so it keeps its place in the trail however late it is written. */
export function auditEventRow(event: AuditEventInput, at: Date): AuditEventsTable {
  return {
    id: uuidv7(),
    userId: event.userId,
    type: event.type,
    detail: JSON.stringify(event.detail ?? {}),
    ip: event.ip ?? null,
    userAgent: event.userAgent ?? null,
    createdAt: at.toISOString()
  }
}
