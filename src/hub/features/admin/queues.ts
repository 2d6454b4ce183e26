import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { MailQueue, UnsentMail } from '../../kernel/mail/queue.js'
import type { PendingSecurityEvent, SecurityEventOutbox } from '../../kernel/security-events/outbox.js'

/** How many rows of each queue the page lists; it says how many there are in all. */
export const QUEUE_ROWS_SHOWN = 100

export interface Queues {
  mail: { mails: UnsentMail[]; total: number }
  /** Oldest first, as `events:pending` prints them, each with its account's address while it exists. */
  events: { events: (PendingSecurityEvent & { email: string | null })[]; total: number }
}

/**
 * The operator's queues: the mail the sender has not delivered (`mailQueue.unsent`) and the
 * security events the applications have not accepted (`events:pending`'s `outbox.pending()`).
 */
export async function queuesOf(db: Kysely<Database>, mailQueue: Pick<MailQueue, 'unsent'>, outbox: Pick<SecurityEventOutbox, 'pending'>): Promise<Queues> {
  const [mail, pending] = await Promise.all([mailQueue.unsent(QUEUE_ROWS_SHOWN), outbox.pending()])
  const shown = pending.slice(0, QUEUE_ROWS_SHOWN)
  const userIds = [...new Set(shown.map((event) => event.userId))]
  const emails = new Map(
    userIds.length === 0 ? [] : (await db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).execute()).map((row) => [row.id, row.email] as const)
  )
  return { mail, events: { events: shown.map((event) => ({ ...event, email: emails.get(event.userId) ?? null })), total: pending.length } }
}
