import type { Kysely } from 'kysely'
import { failureForLog } from '../../../shared/database/availability.js'
import type { Database } from '../../../shared/database/schema.js'
import type { Logger } from '../../../shared/logging.js'
import { daysBefore } from '../../../shared/time.js'
import { PRUNING_INTERVAL_MS } from '../../kernel/audit/pruning.js'
import { startRounds } from '../../kernel/background/rounds.js'

/**
 * How long an applied event's id is kept. Stripe retries an event for up to three days and keeps
 * events, which its dashboard can resend, for 30 days: past that no copy can arrive, so the id
 * guards nothing. A few days' margin beyond.
 */
export const WEBHOOK_EVENT_RETENTION_DAYS = 35

/** Deletes the ids of events applied longer ago than the retention. */
export async function pruneWebhookEvents(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('billingWebhookEvents').where('receivedAt', '<', daysBefore(now, WEBHOOK_EVENT_RETENTION_DAYS)).execute()
}

/** Hourly, as the other records' pruning; returns the stop function for shutdown. */
export function scheduleWebhookEventPruning(db: Kysely<Database>, now: () => Date, logger: Logger): () => Promise<void> {
  return startRounds(
    () => pruneWebhookEvents(db, now()).catch((error: unknown) => logger.error(failureForLog(error), 'pruning applied Stripe event ids failed')),
    PRUNING_INTERVAL_MS
  )
}
