import { randomUUID } from 'node:crypto'
import { type Kysely, PostgresAdapter } from 'kysely'
import { flushErasedPages } from '../../../shared/database/erased-pages.js'
import type { Database } from '../../../shared/database/schema.js'

/** A mail as its template renders it, addressed. */
export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html: string
  /** The account the mail concerns; null for mail to no account. */
  userId: string | null
}

export interface QueuedMail extends OutgoingMail {
  id: string
  /** Attempts so far, the one just claimed included. */
  attempts: number
}

/** A queued mail as the operator sees it: to whom, what, and how its delivery goes. */
export interface UnsentMail {
  id: string
  recipient: string
  subject: string
  /** `failed`: the sender gave up on it (a permanent refusal, or too many attempts). */
  status: 'waiting' | 'failed'
  attempts: number
  nextAttemptAt: string
  lastError: string | null
  createdAt: string
}

/**
 * How long a claim keeps other senders off a mail: longer than one delivery can take (the SMTP
 * transport's timeouts), so a mail is retried only once the sender that claimed it has crashed.
 */
export const CLAIM_MS = 5 * 60_000

/** The durable queue the background sender drains (see sender.ts). */
export function createMailQueue(db: Kysely<Database>) {
  const onPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    /** Queues a mail, due now; pass the caller's transaction so it is sent only if that commits. */
    async enqueue(mail: OutgoingMail, now: Date, executor: Kysely<Database> = db): Promise<string> {
      const id = randomUUID()
      await executor
        .insertInto('mailQueue')
        .values({
          id,
          userId: mail.userId,
          recipient: mail.to,
          subject: mail.subject,
          textBody: mail.text,
          htmlBody: mail.html,
          createdAt: now.toISOString(),
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now.toISOString(),
          lastError: null
        })
        .execute()
      return id
    },

    /**
     * Claims up to `limit` due mails by pushing their next attempt past the claim and counting the
     * attempt, in one statement. On PostgreSQL the rows are picked FOR UPDATE SKIP LOCKED, so hubs
     * sharing the database take different mails; SQLite runs one writer at a time.
     */
    async claimDue(now: Date, limit: number): Promise<QueuedMail[]> {
      const due = db
        .selectFrom('mailQueue')
        .select('id')
        .where('status', '=', 'pending')
        .where('nextAttemptAt', '<=', now.toISOString())
        .orderBy('nextAttemptAt')
        .limit(limit)
        .$if(onPostgres, (query) => query.forUpdate().skipLocked())
      const rows = await db
        .updateTable('mailQueue')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), nextAttemptAt: new Date(now.getTime() + CLAIM_MS).toISOString() }))
        .where('id', 'in', due)
        .returning(['id', 'userId', 'recipient', 'subject', 'textBody', 'htmlBody', 'attempts'])
        .execute()
      return rows.map((row) => ({ id: row.id, userId: row.userId, to: row.recipient, subject: row.subject, text: row.textBody, html: row.htmlBody, attempts: row.attempts }))
    },

    /** A sent mail is deleted: its body may carry a token, which no one should read again. */
    async markSent(id: string): Promise<void> {
      await db.deleteFrom('mailQueue').where('id', '=', id).execute()
    },

    /**
     * After mails were deleted as sent: on SQLite, their bodies and addresses out of the log and
     * the file too, as an erasure's rows are. A deleted account's confirmation is the one row that
     * still names its address, until it is sent (docs/account.md, "Deletion").
     */
    async flushSent(): Promise<void> {
      await flushErasedPages(db)
    },

    async retryLater(id: string, nextAttemptAt: Date, reason: string): Promise<void> {
      await db.updateTable('mailQueue').set({ nextAttemptAt: nextAttemptAt.toISOString(), lastError: reason }).where('id', '=', id).execute()
    },

    /**
     * The mail not sent yet, waiting or given up, oldest first, at most `limit` of them, and how
     * many there are in all: what the console's queues page shows the operator. Never the bodies,
     * which may carry a token.
     */
    async unsent(limit: number): Promise<{ mails: UnsentMail[]; total: number }> {
      const [rows, count] = await Promise.all([
        db.selectFrom('mailQueue').select(['id', 'recipient', 'subject', 'status', 'attempts', 'nextAttemptAt', 'lastError', 'createdAt']).orderBy('createdAt').orderBy('id').limit(limit).execute(),
        db.selectFrom('mailQueue').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow()
      ])
      return { mails: rows.map((row) => ({ ...row, status: row.status === 'failed' ? 'failed' : 'waiting' })), total: Number(count.count) }
    },

    async markFailed(id: string, reason: string): Promise<void> {
      await db.updateTable('mailQueue').set({ status: 'failed', lastError: reason }).where('id', '=', id).execute()
    }
  }
}

export type MailQueue = ReturnType<typeof createMailQueue>
