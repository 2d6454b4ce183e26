import type { Logger } from '../../shared/logging.js'
import type { AuditTrail } from './repository.js'

const HOUR_MS = 3_600_000

/**
 * Prunes the audit trail by each user's retention now and every hour after. Returns the stop
 * function for shutdown; the timer never keeps the process alive on its own.
 */
export function schedulePruning(audit: AuditTrail, logger: Logger, intervalMs = HOUR_MS): () => void {
  const prune = () => audit.pruneAll().catch((error: unknown) => logger.error({ err: error }, 'audit trail pruning failed'))
  void prune()
  const timer = setInterval(prune, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
