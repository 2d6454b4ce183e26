import { failureForLog } from '../../../shared/database/availability.js'
import type { Logger } from '../../../shared/logging.js'
import type { AuditTrail } from './repository.js'

export const PRUNING_INTERVAL_MS = 3_600_000

/**
 * Prunes the audit trail by each user's retention now and every interval after. Returns the stop
 * function for shutdown, which also waits for a run in progress, so none outlives the database.
 * The timer never keeps the process alive on its own.
 */
export function schedulePruning(audit: AuditTrail, logger: Logger, intervalMs = PRUNING_INTERVAL_MS): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve()
  const prune = () => {
    running = audit.pruneAll().catch((error: unknown) => logger.error(failureForLog(error), 'audit trail pruning failed'))
  }
  prune()
  const timer = setInterval(prune, intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
