import type { Kysely } from 'kysely'
import { validate as isUuid } from 'uuid'
import type { Database } from '../../../shared/database/schema.js'
import { decodeKeysetCursor, encodeKeysetCursor } from '../../../shared/http/keyset-cursor.js'
import { daysBefore } from '../../../shared/time.js'
import { RETENTION_DAYS } from '../../kernel/audit/retention.js'
import { AUDIT_EVENT_TYPES, type AuditEventType } from '../../kernel/audit/events.js'


export const ACTIVITY_PAGE_SIZE = { min: 1, max: 100, default: 20 } as const

/**
 * The detail fields each event type shows its owner; any other field stays in the trail (and the
 * export) only. Handles and ids (sessions, passkeys) mean nothing to a person and are left out.
 * A `Record`, so a new event type does not compile until someone decides what it shows.
 */
export const ACTIVITY_DETAIL_FIELDS: Record<AuditEventType, readonly string[]> = {
  signup: [],
  signin: ['method'],
  'signin.failed': ['method', 'reason'],
  signout: [],
  'session.refreshed': [],
  'session.ended': ['scope', 'current', 'count'],
  'passkey.added': ['name'],
  'passkey.renamed': ['name'],
  'passkey.removed': [],
  'sso-token.issued': ['audience'],
  'privacy.updated': ['changed', 'consents'],
  'consent.recorded': ['purpose', 'granted', 'version'],
  'export.created': ['format'],
  'account.disabled': ['endedSessions'],
  'account.enabled': [],
  'password.changed': ['sessionsEnded'],
  'email.change.requested': ['from', 'to'],
  'email.changed': ['from', 'to'],
  'profile.updated': ['changed'],
  'password.reset.requested': [],
  'password.reset': ['endedSessions'],
  'email.verified': [],
  'account.deleted': [],
  'session.reauthenticated': ['method'],
  'totp.enabled': [],
  'totp.disabled': [],
  'recovery-codes.regenerated': [],
  'recovery-code.used': ['remaining'],
  'signin.second-factor.failed': ['method', 'attemptsLeft'],
  'billing.plan.changed': ['plan', 'status', 'source'],
  'billing.checkout.started': ['plan'],
  'billing.portal.opened': [],
  // `total` is the amount as Stripe reported it, already written with its currency ("12.00 EUR").
  'billing.invoice.paid': ['total'],
  'billing.payment.failed': ['total']
}

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

/** A person's own audit trail as they read it: newest first, within their retention, in pages. */
export function createActivityLog(db: Kysely<Database>, now: () => Date) {
  const retentionDaysOf = async (userId: string): Promise<number> => {
    const saved = await db.selectFrom('privacySettings').select('activityLogDays').where('userId', '=', userId).executeTakeFirst()
    return saved?.activityLogDays ?? RETENTION_DAYS.default
  }

  return {
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
          return { type: eventType, at: createdAt, ip, userAgent, detail: shownDetail(eventType, detail) }
        }),
        hasMore,
        nextCursor: hasMore && last ? encodeKeysetCursor(last) : null
      }
    }
  }
}

function shownDetail(type: AuditEventType, stored: string): Record<string, unknown> {
  const detail = JSON.parse(stored) as Record<string, unknown>
  return Object.fromEntries(ACTIVITY_DETAIL_FIELDS[type].filter((field) => Object.hasOwn(detail, field)).map((field) => [field, detail[field]]))
}
