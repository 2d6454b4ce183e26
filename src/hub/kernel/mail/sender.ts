import { outageReason } from '../../../shared/database/availability.js'
import { type Logger, maskIdentifier } from '../../../shared/logging.js'
import { batchWithinClaim, drainingRound, retryDelayMs, startRounds } from '../background/rounds.js'
import { CLAIM_MS, type MailQueue, type QueuedMail } from './queue.js'
import { type MailTransport, SMTP_DELIVERY_MAX_MS } from './transport.js'

export const MAIL_SENDER_INTERVAL_MS = 5_000
/** With the default interval the retries span about five hours before a mail is given up on. */
export const MAX_MAIL_ATTEMPTS = 15
/** Mails claimed per query: as many as are sure to be sent while the claim holds (see batchWithinClaim). */
const BATCH_SIZE = batchWithinClaim(CLAIM_MS, SMTP_DELIVERY_MAX_MS)

export interface MailSenderOptions {
  queue: MailQueue
  transport: MailTransport
  logger: Logger
  now: () => Date
  /** How often the queue is looked at; also the first retry delay, which doubles up to an hour. */
  intervalMs?: number
  maxAttempts?: number
}

/**
 * Sends the queue's due mail now and every interval after, in the background: a request only
 * queues its mail, so an SMTP outage delays mail and fails no request. Returns the stop function
 * for shutdown, which waits for a round in progress and closes the transport. The timer never
 * keeps the process alive on its own.
 */
export function startMailSender(options: MailSenderOptions): () => Promise<void> {
  const { intervalMs = MAIL_SENDER_INTERVAL_MS } = options
  const stopRounds = startRounds(dueMailSender({ ...options, intervalMs }), intervalMs)
  return async () => {
    await stopRounds()
    options.transport.close()
  }
}

/**
 * One round: claims due mail batch by batch and delivers it, then, if any was sent, flushes the
 * sent mail out of SQLite's log and file (once a round, not once a mail). Never throws.
 */
export function dueMailSender({ queue, transport, logger, now, intervalMs, maxAttempts = MAX_MAIL_ATTEMPTS }: MailSenderOptions & { intervalMs: number }) {
  let sentThisRound = 0
  const deliver = async (mail: QueuedMail): Promise<void> => {
    let where: Record<string, string>
    try {
      where = await transport.deliver(mail, now())
    } catch (error) {
      const reason = outageReason(error)
      const about = { mailId: mail.id, to: maskIdentifier(mail.to), attempts: mail.attempts, reason }
      if (mail.attempts >= maxAttempts) {
        await queue.markFailed(mail.id, reason)
        logger.error(about, 'mail given up after its last attempt; kept in the queue as failed')
      } else {
        const retryInMs = retryDelayMs(mail.attempts, intervalMs)
        await queue.retryLater(mail.id, new Date(now().getTime() + retryInMs), reason)
        logger.warn({ ...about, retryInMs }, 'mail not sent; will retry')
      }
      return
    }
    await queue.markSent(mail.id)
    sentThisRound++
    logger.info({ mailId: mail.id, ...where }, 'mail sent')
  }

  const round = drainingRound({ claim: () => queue.claimDue(now(), BATCH_SIZE), batchSize: BATCH_SIZE, deliver, logger, queueName: 'mail queue' })
  return async (): Promise<void> => {
    await round()
    if (sentThisRound === 0) return
    sentThisRound = 0
    try {
      await queue.flushSent()
    } catch (error) {
      // SQLite's own next checkpoint copies them out instead; nothing is lost or sent twice.
      logger.warn({ reason: outageReason(error) }, 'sent mail not flushed from the database log yet')
    }
  }
}
