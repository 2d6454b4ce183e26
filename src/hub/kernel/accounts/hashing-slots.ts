/**
 * At most `slots` tasks at once; the rest wait their turn in arrival order. Password hashing goes
 * through one of these so that a flood of logins queues up behind itself instead of taking every
 * CPU away from the event loop (docs/performance.md, "Password hashing and the event loop").
 */
export function hashingSlots(slots: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else running--
  }
  return async (task) => {
    if (running < slots) running++
    // A released slot passes straight to the next waiter, so `running` never drops in between.
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await task()
    } finally {
      release()
    }
  }
}
