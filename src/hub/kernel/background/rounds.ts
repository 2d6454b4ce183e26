import { failureForLog } from '../../../shared/database/availability.js'
import type { Logger } from '../../../shared/logging.js'

/** The longest a failed delivery waits before its next attempt. */
const MAX_RETRY_DELAY_MS = 3_600_000

/**
 * How many items one claim may take: a batch is claimed at once and delivered one item after
 * another, so all its deliveries, each up to `deliveryMs`, must end within the claim's hold, or
 * another sender would take and deliver the items still waiting. One item fewer leaves a margin.
 */
export function batchWithinClaim(claimMs: number, deliveryMs: number): number {
  return Math.max(1, Math.floor(claimMs / deliveryMs) - 1)
}

/** The delay before attempt `attempts + 1`: the interval, doubled per failed attempt, capped at an hour. */
export function retryDelayMs(attempts: number, intervalMs: number): number {
  return Math.min(intervalMs * 2 ** (attempts - 1), MAX_RETRY_DELAY_MS)
}

/**
 * Runs `round` now and every interval after, in the background, never two at once; for the
 * senders that drain a durable queue (mail, security events). Returns the stop function for
 * shutdown, which waits for a round in progress. The timer never keeps the process alive on its own.
 */
export function startRounds(round: () => Promise<void>, intervalMs: number): () => Promise<void> {
  let running: Promise<void> | undefined
  const tick = () => {
    running ??= round().finally(() => {
      running = undefined
    })
  }
  tick()
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}

export interface DrainingRoundOptions<T> {
  /** Claims the next batch of due items, at most `batchSize`. */
  claim: () => Promise<T[]>
  batchSize: number
  /** Delivers one item and records the outcome; never throws for a failed delivery. */
  deliver: (item: T) => Promise<void>
  logger: Logger
  /** How the log names the queue ("mail queue"). */
  queueName: string
}

/**
 * One round of a sender: claims due items batch by batch, going on while it finds a full batch,
 * and delivers them. Never throws. A database outage would fail every round alike: it is logged
 * when it starts and when it ends, not each time.
 */
export function drainingRound<T>({ claim, batchSize, deliver, logger, queueName }: DrainingRoundOptions<T>): () => Promise<void> {
  let queueUnavailable = false
  return async () => {
    try {
      for (;;) {
        const batch = await claim()
        for (const item of batch) await deliver(item)
        if (queueUnavailable) logger.info(`${queueName} reachable again`)
        queueUnavailable = false
        if (batch.length < batchSize) return
      }
    } catch (error) {
      if (!queueUnavailable) logger.error(failureForLog(error), `${queueName} unavailable; what is queued waits in it`)
      queueUnavailable = true
    }
  }
}
