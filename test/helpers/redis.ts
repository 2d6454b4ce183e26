import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'

let noticePrinted = false

/**
 * The Redis of TEST_REDIS_URL, or undefined (with a notice) when it is unset. In CI a missing
 * Redis is a failure, never a silent skip.
 */
export function redisUrlUnderTest(): string | undefined {
  const url = process.env.TEST_REDIS_URL
  if (url) return url
  if (process.env.CI === 'true') throw new Error('TEST_REDIS_URL must be set in CI: the Redis-backed tests run there')
  if (!noticePrinted) {
    noticePrinted = true
    console.warn('Notice: TEST_REDIS_URL is not set, so the Redis-backed tests are skipped.')
  }
  return undefined
}

/**
 * A client whose every key carries a prefix of its own, so test runs sharing one Redis never see
 * each other's counters. The keys expire with their rate-limit window; nothing needs deleting.
 */
export function connectTestRedis(url: string): Redis {
  return new Redis(url, { keyPrefix: `hearth_test_${process.pid}_${randomBytes(4).toString('hex')}:` })
}
