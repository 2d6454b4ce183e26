import { LRUCache } from 'lru-cache'
import { SSO_TOKEN_LIFETIME_SECONDS } from '../../shared/sso/sso-token.js'
import { CLOCK_SKEW_SECONDS, SsoTokenError, type SsoTokenVerifier } from '../../shared/sso/token-verifier.js'

/** Past this, every SSO token issued before a revocation has expired anyway. */
const REMEMBERED_MS = (SSO_TOKEN_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) * 1000
const MAX_ENTRIES = 10_000

/**
 * The users whose sessions the hub ended (sessions-revoked) or whose account it erased
 * (account-purged) lately, with when: SSO tokens issued until then are refused, so a token taken
 * before the change cannot act on the person's behalf (or recreate their data) for the rest of its
 * five minutes. Kept in this process's memory, only as long as such a token could live: no row
 * names the person (docs/security-events.md).
 */
export function createRevokedSubjects(now: () => Date) {
  const revokedAt = new LRUCache<string, number>({ max: MAX_ENTRIES, ttl: REMEMBERED_MS, perf: { now: () => now().getTime() } })
  return {
    /** `at`: the time of the change, in seconds. */
    revoke(userId: string, at: number): void {
      revokedAt.set(userId, Math.max(at, revokedAt.get(userId) ?? at))
    },

    /** The verifier, refusing a token of a revoked user issued at or before the revocation. */
    refusingRevoked(verify: SsoTokenVerifier): SsoTokenVerifier {
      return async (token) => {
        const identity = await verify(token)
        const revoked = revokedAt.get(identity.userId)
        if (revoked !== undefined && identity.issuedAt <= revoked) throw new SsoTokenError('invalid')
        return identity
      }
    }
  }
}

export type RevokedSubjects = ReturnType<typeof createRevokedSubjects>
