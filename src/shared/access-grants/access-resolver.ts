import { LRUCache } from 'lru-cache'
import type { AccessGrant } from './grant.js'
import type { GrantsRepository } from './repository.js'

export interface AccessResolverOptions {
  /** Most (user, application) pairs kept in memory. */
  maxEntries?: number
  /** How long a grant is trusted without a read, so a revocation elsewhere is seen within it. */
  ttlMs?: number
}

export type AccessResolver = ReturnType<typeof createAccessResolver>

/**
 * Finds a user's grant for an application, creating the default one on first use. A bounded
 * cache keeps the hot path free of database work: a steady-state request reads at most once per
 * TTL and never writes.
 */
export function createAccessResolver(grants: GrantsRepository, options: AccessResolverOptions = {}) {
  const cache = new LRUCache<string, AccessGrant>({ max: options.maxEntries ?? 10_000, ttl: options.ttlMs ?? 5_000 })
  const pending = new Map<string, Promise<AccessGrant>>()

  return {
    async resolve(userId: string, applicationId: string): Promise<AccessGrant> {
      const key = `${applicationId}\u0000${userId}`
      const cached = cache.get(key)
      if (cached) return cached
      // Concurrent first requests of one user share one lookup instead of racing to insert.
      let lookup = pending.get(key)
      if (!lookup) {
        lookup = grants.findOrCreateDefault(userId, applicationId).finally(() => pending.delete(key))
        pending.set(key, lookup)
      }
      const grant = await lookup
      cache.set(key, grant)
      return grant
    }
  }
}
