import { outageReason } from '../../../shared/database/availability.js'
import type { Logger } from '../../../shared/logging.js'
import type { CounterStore } from './counter-store.js'

export interface FailoverOptions {
  /** The counters every instance shares (Redis). */
  shared: CounterStore
  /** Where this process counts while the shared store fails. */
  local: CounterStore
  logger: Logger
  /** How long after a failure the shared store is tried again; meanwhile nothing waits on it. */
  retryIntervalMs?: number
  clock?: () => number
}

const DEFAULT_RETRY_INTERVAL_MS = 2_000

/**
 * Counters in the shared store while it answers, in this process while it does not: sign-in
 * stays possible and limited through a Redis outage, each instance counting for itself, rather
 * than failing every login. The switch is logged once each way. Counts made in process are not
 * carried back: the shared counts resume where they were.
 */
export function createFailoverCounterStore(options: FailoverOptions): CounterStore {
  const { shared, local, logger, retryIntervalMs = DEFAULT_RETRY_INTERVAL_MS, clock = Date.now } = options
  let retryAt: number | null = null

  const counted = async <T>(operation: (store: CounterStore) => Promise<T>): Promise<T> => {
    if (retryAt !== null && clock() < retryAt) return operation(local)
    try {
      const result = await operation(shared)
      if (retryAt !== null) {
        retryAt = null
        logger.info('Redis answers again: rate-limit counters are shared again')
      }
      return result
    } catch (error) {
      if (retryAt === null) logger.warn({ reason: outageReason(error) }, 'Redis is unreachable: rate-limit counters are kept in this process until it answers')
      retryAt = clock() + retryIntervalMs
      return operation(local)
    }
  }

  return {
    increment: (key, windowMs) => counted((store) => store.increment(key, windowMs)),
    decrement: (key) => counted((store) => store.decrement(key)),
    reset: (key) => counted((store) => store.reset(key)),
    async close() {
      await Promise.all([shared.close(), local.close()])
    }
  }
}
