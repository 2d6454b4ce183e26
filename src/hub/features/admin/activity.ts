import type { Kysely } from 'kysely'
import { validate as isUuid } from 'uuid'
import type { Database } from '../../../shared/database/schema.js'
import { decodeKeysetCursor, encodeKeysetCursor } from '../../../shared/http/keyset-cursor.js'
import { type ActivityReading, shownDetail } from '../../kernel/audit/activity.js'
import { AUDIT_EVENT_TYPES, type AuditEventType } from '../../kernel/audit/events.js'

export const ADMIN_ACTIVITY_PAGE_SIZE = { min: 1, max: 100, default: 20 } as const

/** An event of any account, as the administrator reads it. */
export interface AdminActivityEvent {
  userId: string
  /** The account's address; null once the account is deleted. */
  email: string | null
  type: AuditEventType
  at: string
  ip: string | null
  userAgent: string | null
  /** The fields its reading shows its owner, and nothing more. */
  detail: Record<string, unknown>
}

export interface AdminActivityPage {
  events: AdminActivityEvent[]
  hasMore: boolean
  nextCursor: string | null
}

export interface AdminActivityQuery {
  userId?: string | undefined
  type?: AuditEventType | undefined
  limit: number
  /** A `nextCursor` of an earlier page; a malformed one is a 400. */
  cursor?: string | undefined
}

/**
 * Every account's audit trail, newest first, in keyset pages: the same rows and readings as a
 * person's own activity (src/hub/activity.ts), so an administrator reads each event as its owner
 * does, with whose it is.
 */
export function createAdminActivity(db: Kysely<Database>, readings: Readonly<Record<AuditEventType, ActivityReading>>) {
  return {
    readings,
    async page({ userId, type, limit, cursor }: AdminActivityQuery): Promise<AdminActivityPage> {
      const before = cursor === undefined ? undefined : decodeKeysetCursor(cursor, isUuid)
      let query = db
        .selectFrom('auditEvents')
        .leftJoin('users', 'users.id', 'auditEvents.userId')
        .select(['auditEvents.id', 'auditEvents.userId', 'users.email', 'auditEvents.type', 'auditEvents.createdAt', 'auditEvents.ip', 'auditEvents.userAgent', 'auditEvents.detail'])
        .where('auditEvents.type', 'in', type === undefined ? AUDIT_EVENT_TYPES : [type])
      if (userId !== undefined) query = query.where('auditEvents.userId', '=', userId)
      if (before) query = query.where((eb) => eb(eb.refTuple('auditEvents.createdAt', 'auditEvents.id'), '<', eb.tuple(before.createdAt, before.id)))
      const rows = await query.orderBy('auditEvents.createdAt', 'desc').orderBy('auditEvents.id', 'desc').limit(limit + 1).execute()
      const shown = rows.slice(0, limit)
      const last = shown.at(-1)
      const hasMore = rows.length > limit
      return {
        events: shown.map((row) => {
          const eventType = row.type as AuditEventType
          return { userId: row.userId, email: row.email, type: eventType, at: row.createdAt, ip: row.ip, userAgent: row.userAgent, detail: shownDetail(readings[eventType], row.detail) }
        }),
        hasMore,
        nextCursor: hasMore && last ? encodeKeysetCursor(last) : null
      }
    }
  }
}

export type AdminActivity = ReturnType<typeof createAdminActivity>
