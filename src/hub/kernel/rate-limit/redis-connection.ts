import type { Redis, RedisOptions } from 'ioredis'
import { outageReason } from '../../../shared/database/availability.js'
import type { Logger } from '../../../shared/logging.js'

/** A command to a server that has stopped answering fails after this long. */
export const REDIS_COMMAND_TIMEOUT_MS = 500

/**
 * A Redis connection for counters that must never hold a request up: a command fails at once
 * while the connection is down (no offline queue) and after half a second when the server hangs,
 * and the client reconnects in the background, every 2 s at the slowest, for as long as it takes.
 * Its callers count in process meanwhile (see `failover-counter-store.ts`). ioredis is imported
 * here, so a hub without REDIS_URL never loads it.
 */
export async function connectRedis(url: string, logger: Logger, options: Pick<RedisOptions, 'keyPrefix'> = {}): Promise<Redis> {
  // Through the default export (module.exports, on which ioredis also sets `Redis`): in the server
  // bundle a CommonJS package imported this way has no named exports, only the default.
  const { Redis } = (await import('ioredis')).default
  const redis = new Redis(url, {
    ...options,
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000)
  })
  // Without a listener, ioredis prints "[ioredis] Unhandled error event" on stderr for every failed
  // reconnect, plain text among the JSON log; what an outage means is logged where it is handled.
  redis.on('error', (error: unknown) => logger.debug({ reason: outageReason(error) }, 'redis connection error'))
  return redis
}
