import type { Redis } from 'ioredis'
import type { Counter, CounterStore } from './counter-store.js'

/** Where the hub's counters live in Redis, when the hub opens the connection itself. */
export const RATE_LIMIT_KEY_PREFIX = 'hearth:hub:rate:'

/**
 * DECR only while the window's key exists and is positive: a bare DECR on an expired key would
 * create it at -1 with no expiry, a window that never closes.
 */
const DECREMENT_LIVE_KEY =
  "local n = tonumber(redis.call('get', KEYS[1])) if n and n > 0 then return redis.call('decr', KEYS[1]) end return 0"

/**
 * Counters in Redis, shared by every hub instance. INCR and PEXPIRE NX run in one MULTI, so the
 * window starts at the first hit and later hits never extend it. The client's keyPrefix keeps
 * them apart from anything else in the same Redis.
 */
export function createRedisCounterStore(redis: Redis): CounterStore {
  const counter = (count: unknown, pttl: unknown): Counter => ({ count: Number(count), resetInMs: Math.max(0, Number(pttl)) })
  return {
    async increment(key, windowMs) {
      const results = await redis.multi().incr(key).pexpire(key, windowMs, 'NX').pttl(key).exec()
      if (!results) throw new Error('Redis transaction was aborted')
      const [[incrError, count] = [], , [pttlError, pttl] = []] = results
      if (incrError || pttlError) throw incrError ?? pttlError
      return counter(count, pttl)
    },
    async decrement(key) {
      // ioredis applies its keyPrefix to an EVAL's KEYS as to any other command's keys.
      await redis.eval(DECREMENT_LIVE_KEY, 1, key)
    },
    async reset(key) {
      await redis.del(key)
    },
    async close() {
      await redis.quit()
    }
  }
}
