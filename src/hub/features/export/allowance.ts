import type { CounterStore } from '../../kernel/rate-limit/counter-store.js'
import type { Limit } from '../../kernel/rate-limit/sign-in-throttle.js'
import type { ExportAllowance } from './routes.js'

/** Issue 4: at most 10 exports per user per hour. */
export const EXPORTS_PER_USER: Limit = { limit: 10, windowMs: 60 * 60 * 1000 }

/** Counts each export in the hub's counter store (Redis or in process), so every instance agrees. */
export function exportAllowance(store: CounterStore, { limit, windowMs }: Limit = EXPORTS_PER_USER): ExportAllowance {
  return async (userId) => {
    const { count, resetInMs } = await store.increment(`export:user:${userId}`, windowMs)
    return { allowed: count <= limit, retryAfterSeconds: Math.ceil(resetInMs / 1000) }
  }
}
