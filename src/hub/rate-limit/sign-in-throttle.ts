import { createHash } from 'node:crypto'
import type { CounterStore } from './counter-store.js'

export interface Limit {
  limit: number
  windowMs: number
}

export interface RateLimits {
  /** Failed logins for one account, from anywhere: slows password guessing against one person. */
  failedLoginsPerAccount: Limit
  /** Failed logins from one IP across accounts: generous, since an office shares one address. */
  failedLoginsPerIp: Limit
  /** Sign-up attempts from one IP: slows mass account creation. */
  signupsPerIp: Limit
}

const FIFTEEN_MINUTES = 15 * 60 * 1000
const ONE_HOUR = 60 * 60 * 1000

export const DEFAULT_RATE_LIMITS: RateLimits = {
  failedLoginsPerAccount: { limit: 10, windowMs: FIFTEEN_MINUTES },
  failedLoginsPerIp: { limit: 100, windowMs: FIFTEEN_MINUTES },
  signupsPerIp: { limit: 20, windowMs: ONE_HOUR }
}

/** Emails are hashed before they become keys, so the counter store holds no addresses. */
const accountKey = (email: string) => `login:account:${createHash('sha256').update(email).digest('base64url')}`
const ipKey = (kind: string, ip: string) => `${kind}:ip:${ip}`

/**
 * The hub's abuse limits; a check answers how long to wait (ms) when blocked, else null.
 *
 * A login attempt is counted as a failure before the password is checked, and taken back when it
 * succeeds: counting only after a failed check would let parallel guesses all pass the check
 * before any of them is counted.
 */
export function createSignInThrottle(store: CounterStore, limits: RateLimits) {
  const count = async (key: string, { limit, windowMs }: Limit) => {
    const { count, resetInMs } = await store.increment(key, windowMs)
    return { key, blockedFor: count > limit ? resetInMs : null }
  }
  return {
    /**
     * Counts this login attempt against the account and the IP. When either is over its limit,
     * answers the wait and takes the attempt back from the other, since no password was tried.
     */
    async loginAttempt(email: string, ip: string): Promise<number | null> {
      const counted = await Promise.all([count(accountKey(email), limits.failedLoginsPerAccount), count(ipKey('login', ip), limits.failedLoginsPerIp)])
      const waits = counted.flatMap(({ blockedFor }) => (blockedFor === null ? [] : [blockedFor]))
      if (waits.length === 0) return null
      await Promise.all(counted.filter(({ blockedFor }) => blockedFor === null).map(({ key }) => store.decrement(key)))
      return Math.max(...waits)
    },
    /**
     * A successful login clears the account's failures and takes its attempt back from the IP
     * (not the IP's other failures: others may be guessing from there).
     */
    async loginSucceeded(email: string, ip: string): Promise<void> {
      await Promise.all([store.reset(accountKey(email)), store.decrement(ipKey('login', ip))])
    },
    /** Counts this sign-up attempt; blocked once the IP's attempts exceed the limit. */
    async signupBlockedFor(ip: string): Promise<number | null> {
      return (await count(ipKey('signup', ip), limits.signupsPerIp)).blockedFor
    }
  }
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>
