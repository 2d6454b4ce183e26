import { randomFillSync } from 'node:crypto'

/**
 * Random bytes for the values every response needs (CSP nonces, CSRF token nonces), drawn from
 * one buffer the CSPRNG fills a page at a time. Each call to the CSPRNG costs microseconds of
 * fixed overhead whatever its size, and a response used to make three; every byte handed out is
 * used once, so the values are exactly as unpredictable as separate calls' (Node caches
 * randomUUID's bytes the same way).
 */
const POOL_BYTES = 4096
const pool = Buffer.alloc(POOL_BYTES)
let offset = POOL_BYTES

/** `size` fresh random bytes (at most a pool's worth), copied out of the pool. */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} pooled random bytes at a time`)
  if (offset + size > POOL_BYTES) {
    randomFillSync(pool)
    offset = 0
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size))
  // Handed-out bytes are zeroed in the pool, so nothing left in it repeats a value in use.
  pool.fill(0, offset, offset + size)
  offset += size
  return bytes
}
