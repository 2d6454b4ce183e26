import type { Kysely } from 'kysely'
import { validate as isUuid } from 'uuid'
import type { Database } from '../../../shared/database/schema.js'
import { decodeKeysetCursor, encodeKeysetCursor } from '../../../shared/http/keyset-cursor.js'
import { daysBefore } from '../../../shared/time.js'
import { RETENTION_DAYS } from '../../kernel/audit/retention.js'
import { type ActivityReading, shownDetail } from '../../kernel/audit/activity.js'
import { AUDIT_EVENT_TYPES, type AuditEventType } from '../../kernel/audit/events.js'

export const ACTIVITY_PAGE_SIZE = { min: 1, max: 100, default: 20 } as const

export interface ActivityEvent {
  type: AuditEventType
  at: string
  ip: string | null
  userAgent: string | null
  detail: Record<string, unknown>
}

export interface ActivityPage {
  /** Newest first. */
  events: ActivityEvent[]
  hasMore: boolean
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null
}

export interface ActivityQuery {
  limit: number
  /** A `nextCursor` of an earlier page; a malformed one is a 400. */
  cursor?: string | undefined
}

export type ActivityLog = ReturnType<typeof createActivityLog>

/**
 * A person's own audit trail as they read it: newest first, within their retention, in pages;
 * each event with the detail fields its reading shows (`readings`, composed from what the kernel
 * and the features declare, src/hub/activity.ts).
 */
export function createActivityLog(db: Kysely<Database>, now: () => Date, readings: Readonly<Record<AuditEventType, ActivityReading>>) {
  const retentionDaysOf = async (userId: string): Promise<number> => {
    const saved = await db.selectFrom('privacySettings').select('activityLogDays').where('userId', '=', userId).executeTakeFirst()
    return saved?.activityLogDays ?? RETENTION_DAYS.default
  }

  return {
    /** How each event type reads: its shown fields and sentences. */
    readings,
    /** The page after `cursor` (or the newest); events older than the retention are not shown even before pruning drops them. */
    async page(userId: string, { limit, cursor }: ActivityQuery): Promise<ActivityPage> {
      const before = cursor === undefined ? undefined : decodeKeysetCursor(cursor, isUuid)
      const oldest = daysBefore(now(), await retentionDaysOf(userId))
      let query = db
        .selectFrom('auditEvents')
        .select(['id', 'type', 'createdAt', 'ip', 'userAgent', 'detail'])
        .where('userId', '=', userId)
        .where('type', 'in', AUDIT_EVENT_TYPES)
        .where('createdAt', '>=', oldest)
      if (before) query = query.where((eb) => eb(eb.refTuple('createdAt', 'id'), '<', eb.tuple(before.createdAt, before.id)))
      const rows = await query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit + 1).execute()
      const shown = rows.slice(0, limit)
      const last = shown.at(-1)
      const hasMore = rows.length > limit
      return {
        events: shown.map(({ type, createdAt, ip, userAgent, detail }) => {
          const eventType = type as AuditEventType
          return { type: eventType, at: createdAt, ip, userAgent, detail: shownDetail(readings[eventType], detail) }
        }),
        hasMore,
        nextCursor: hasMore && last ? encodeKeysetCursor(last) : null
      }
    }
  }
}
