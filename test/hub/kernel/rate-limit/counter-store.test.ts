import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CounterStore, createMemoryCounterStore } from '../../../../src/hub/kernel/rate-limit/counter-store.js'
import { createRedisCounterStore } from '../../../../src/hub/kernel/rate-limit/redis-counter-store.js'
import { connectTestRedis, redisUrlUnderTest } from '../../../helpers/redis.js'

const redisUrl = redisUrlUnderTest()
const stores: { name: string; open: () => CounterStore }[] = [
  { name: 'memory', open: () => createMemoryCounterStore() },
  ...(redisUrl ? [{ name: 'redis', open: () => createRedisCounterStore(connectTestRedis(redisUrl)) }] : [])
]

describe.each(stores)('$name counter store', ({ open }) => {
  let store: CounterStore
  beforeAll(() => {
    store = open()
  })
  afterAll(async () => {
    await store.close()
  })

  // The store answers counts only through increment: each check below counts one hit more than it reads.
  it('counts hits within a window that starts at the first hit', async () => {
    expect(await store.increment('a', 60_000)).toEqual({ count: 1, resetInMs: expect.any(Number) })
    const second = await store.increment('a', 60_000)
    expect(second.count).toBe(2)
    expect(second.resetInMs).toBeGreaterThan(50_000)
    expect(second.resetInMs).toBeLessThanOrEqual(60_000)
  })

  it('keeps keys apart and resets one', async () => {
    await store.increment('b', 60_000)
    await store.increment('c', 60_000)
    await store.reset('b')
    expect((await store.increment('b', 60_000)).count).toBe(1)
    expect((await store.increment('c', 60_000)).count).toBe(2)
  })

  it('takes back a hit, never below zero, and never revives a closed window', async () => {
    await store.increment('d', 60_000)
    await store.increment('d', 60_000)
    await store.decrement('d')
    expect((await store.increment('d', 60_000)).count).toBe(2)
    for (let i = 0; i < 4; i++) await store.decrement('d')
    expect((await store.increment('d', 60_000)).count).toBe(1)
    // A DECR of a missing key would leave it at -1 with no expiry: the next hit would count 0.
    await store.decrement('never-counted')
    const first = await store.increment('never-counted', 60_000)
    expect(first.count).toBe(1)
    expect(first.resetInMs).toBeGreaterThan(0)
  })
})

describe('memory counter store windows', () => {
  it('starts a new window once the old one has passed', async () => {
    let now = 0
    const store = createMemoryCounterStore(() => new Date(now))
    await store.increment('k', 1000)
    await store.increment('k', 1000)
    now = 1000
    expect((await store.increment('k', 1000)).count).toBe(1)
  })
})

describe('memory counter store when full', () => {
  it('keeps every live window and answers a new key as over any limit until the first window closes', async () => {
    let now = 0
    const store = createMemoryCounterStore(() => new Date(now), { maxKeys: 3 })
    await store.increment('lockout', 1000)
    now = 100
    await store.increment('other', 5000)
    await store.increment('third', 1000)
    expect(await store.increment('new', 1000)).toEqual({ count: Number.POSITIVE_INFINITY, resetInMs: 900 })
    expect((await store.increment('lockout', 1000)).count).toBe(2)
    now = 1000
    expect((await store.increment('new', 1000)).count).toBe(1)
    expect((await store.increment('other', 5000)).count).toBe(2)
  })

  it('makes room when a window is reset', async () => {
    const store = createMemoryCounterStore(() => new Date(0), { maxKeys: 2 })
    await store.increment('a', 1000)
    await store.increment('b', 1000)
    await store.reset('a')
    expect((await store.increment('c', 1000)).count).toBe(1)
    expect((await store.increment('b', 1000)).count).toBe(2)
  })
})
