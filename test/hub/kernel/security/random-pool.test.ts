import { describe, expect, it } from 'vitest'
import { pooledRandomBytes } from '../../../../src/hub/kernel/security/random-pool.js'

describe('pooled random bytes', () => {
  it('hands out the size asked for, never the same bytes twice, across pool refills', () => {
    // 4096-byte pool: 1000 draws of 18 bytes refill it several times.
    const draws = Array.from({ length: 1000 }, () => pooledRandomBytes(18))
    expect(draws.every((bytes) => bytes.length === 18)).toBe(true)
    expect(new Set(draws.map((bytes) => bytes.toString('hex'))).size).toBe(draws.length)
  })

  it('returns copies: a caller changing its bytes cannot change a later draw', () => {
    const first = pooledRandomBytes(16)
    first.fill(0)
    expect(pooledRandomBytes(16).equals(Buffer.alloc(16))).toBe(false)
  })

  it('refuses more than a pool at a time', () => {
    expect(() => pooledRandomBytes(4097)).toThrow(RangeError)
  })
})
