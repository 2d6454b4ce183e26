import { LRUCache } from 'lru-cache'

/** A fixed-window counter: how many hits so far and when the window closes. */
export interface Counter {
  count: number
  resetInMs: number
}

/** Where rate-limit counters live: Redis when several instances must agree, else this process. */
export interface CounterStore {
  /** Adds one hit; the window starts at the first hit and lasts `windowMs`. */
  increment(key: string, windowMs: number): Promise<Counter>
  /** Takes back one hit of the current window (never below zero); nothing when the window has passed. */
  decrement(key: string): Promise<void>
  reset(key: string): Promise<void>
  close(): Promise<void>
}

/** Enough keys for a busy instance; the least recently touched go first beyond it. */
const MEMORY_STORE_MAX_KEYS = 100_000

export function createMemoryCounterStore(now: () => Date = () => new Date()): CounterStore {
  const windows = new LRUCache<string, { count: number; resetAt: number }>({ max: MEMORY_STORE_MAX_KEYS })
  const current = (key: string) => {
    const window = windows.get(key)
    return window && window.resetAt > now().getTime() ? window : undefined
  }
  return {
    async increment(key, windowMs) {
      const window = current(key) ?? { count: 0, resetAt: now().getTime() + windowMs }
      window.count += 1
      windows.set(key, window)
      return { count: window.count, resetInMs: window.resetAt - now().getTime() }
    },
    async decrement(key) {
      const window = current(key)
      if (window) window.count = Math.max(0, window.count - 1)
    },
    async reset(key) {
      windows.delete(key)
    },
    async close() {}
  }
}
