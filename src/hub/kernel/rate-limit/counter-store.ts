/** A fixed-window counter: how many hits so far and when the window closes. */
export interface Counter {
  /** Infinity when a full store cannot open the key's window: over any limit, until `resetInMs`. */
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

export interface MemoryCounterStoreOptions {
  /** How many windows the store holds at most. */
  maxKeys?: number
}

/** Enough windows for a busy instance. */
const MEMORY_STORE_MAX_KEYS = 100_000

interface Window {
  count: number
  resetAt: number
  windowMs: number
}

/**
 * Counters in this process, in bounded memory. Only closed windows make room: evicting a live one
 * would erase a lockout, so a store full of live windows fails closed, answering a new key as over
 * any limit until the first window closes.
 */
export function createMemoryCounterStore(now: () => Date = () => new Date(), { maxKeys = MEMORY_STORE_MAX_KEYS }: MemoryCounterStoreOptions = {}): CounterStore {
  const windows = new Map<string, Window>()
  // Windows of one length close in the order they opened, so each length's queue (a Map keeps
  // insertion order) has its closed windows at the front: making room never scans live ones.
  const queues = new Map<number, Map<string, Window>>()
  const queueOf = (windowMs: number) => {
    const queue = queues.get(windowMs) ?? new Map<string, Window>()
    queues.set(windowMs, queue)
    return queue
  }
  const forget = (key: string) => {
    const window = windows.get(key)
    if (!window) return
    windows.delete(key)
    queues.get(window.windowMs)?.delete(key)
  }
  const dropClosed = (at: number) => {
    for (const queue of queues.values()) {
      for (const [key, window] of queue) {
        if (window.resetAt > at) break
        forget(key)
      }
    }
  }
  const firstCloseIn = (at: number) => {
    let first = Number.POSITIVE_INFINITY
    for (const queue of queues.values()) {
      const oldest = queue.values().next()
      if (!oldest.done) first = Math.min(first, oldest.value.resetAt)
    }
    return first - at
  }
  const live = (key: string, at: number) => {
    const window = windows.get(key)
    return window && window.resetAt > at ? window : undefined
  }

  return {
    async increment(key, windowMs) {
      const at = now().getTime()
      let window = live(key, at)
      if (!window) {
        forget(key)
        if (windows.size >= maxKeys) dropClosed(at)
        if (windows.size >= maxKeys) return { count: Number.POSITIVE_INFINITY, resetInMs: firstCloseIn(at) }
        window = { count: 0, resetAt: at + windowMs, windowMs }
        windows.set(key, window)
        queueOf(windowMs).set(key, window)
      }
      window.count += 1
      return { count: window.count, resetInMs: window.resetAt - at }
    },
    async decrement(key) {
      const window = live(key, now().getTime())
      if (window) window.count = Math.max(0, window.count - 1)
    },
    async reset(key) {
      forget(key)
    },
    async close() {}
  }
}
