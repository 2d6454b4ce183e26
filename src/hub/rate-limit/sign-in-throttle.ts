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

/** The hub's abuse limits; each check answers how long to wait (ms) when blocked, else null. */
export function createSignInThrottle(store: CounterStore, limits: RateLimits) {
  const blockedFor = async (key: string, { limit }: Limit): Promise<number | null> => {
    const counter = await store.get(key)
    return counter && counter.count >= limit ? counter.resetInMs : null
  }
  return {
    async loginBlockedFor(email: string, ip: string): Promise<number | null> {
      const [account, address] = await Promise.all([
        blockedFor(accountKey(email), limits.failedLoginsPerAccount),
        blockedFor(ipKey('login', ip), limits.failedLoginsPerIp)
      ])
      return account ?? address
    },
    async loginFailed(email: string, ip: string): Promise<void> {
      await Promise.all([
        store.increment(accountKey(email), limits.failedLoginsPerAccount.windowMs),
        store.increment(ipKey('login', ip), limits.failedLoginsPerIp.windowMs)
      ])
    },
    /** A successful login clears the account's failures (not the IP's: others may be guessing from there). */
    async loginSucceeded(email: string): Promise<void> {
      await store.reset(accountKey(email))
    },
    /** Counts this sign-up attempt; blocked once the IP's attempts exceed the limit. */
    async signupBlockedFor(ip: string): Promise<number | null> {
      const { count, resetInMs } = await store.increment(ipKey('signup', ip), limits.signupsPerIp.windowMs)
      return count > limits.signupsPerIp.limit ? resetInMs : null
    }
  }
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>
