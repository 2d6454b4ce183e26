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
  /**
   * Successful sign-ins for one account: bounds how fast one password or ID token makes sessions
   * and password hashes (argon2 is what a loop of correct logins costs everyone else).
   */
  signInsPerAccount: Limit
  /** Password-reset mails asked for one address, whether it has an account or not: bounds mail to one inbox. */
  passwordResetsPerAddress: Limit
  /** Password-reset requests from one IP across addresses. */
  passwordResetsPerIp: Limit
  /** Verification mails one account asks to be resent. */
  verificationMailsPerAccount: Limit
}

const FIFTEEN_MINUTES = 15 * 60 * 1000
const ONE_HOUR = 60 * 60 * 1000

export const DEFAULT_RATE_LIMITS: RateLimits = {
  failedLoginsPerAccount: { limit: 10, windowMs: FIFTEEN_MINUTES },
  failedLoginsPerIp: { limit: 100, windowMs: FIFTEEN_MINUTES },
  signupsPerIp: { limit: 20, windowMs: ONE_HOUR },
  signInsPerAccount: { limit: 30, windowMs: FIFTEEN_MINUTES },
  passwordResetsPerAddress: { limit: 5, windowMs: ONE_HOUR },
  passwordResetsPerIp: { limit: 20, windowMs: ONE_HOUR },
  verificationMailsPerAccount: { limit: 5, windowMs: ONE_HOUR }
}

/**
 * The ways to sign in, counted apart: login by email, set-cookie and passkey by user id; and the
 * set-up link's token (docs/administration.md), by IP, which no one should be able to guess either.
 */
export type SignInRoute = 'login' | 'set-cookie' | 'passkey' | 'setup'

/** Why a sign-in attempt was refused, and for how long (ms). */
export interface SignInRefusal {
  limit: 'failures' | 'sign-ins'
  retryInMs: number
}

/** Emails (and user ids) are hashed before they become keys, so the counter store holds no addresses. */
const accountKey = (route: SignInRoute | 'password-reset' | 'email-verification', account: string, counter = 'account') =>
  `${route}:${counter}:${createHash('sha256').update(account).digest('base64url')}`
const ipKey = (kind: string, ip: string) => `${kind}:ip:${ip}`

/**
 * The hub's abuse limits; a check answers how long to wait (ms) when blocked, else null.
 *
 * A sign-in attempt (a login, or a set-cookie) is counted as a failure before the password or ID
 * token is checked, and taken back when it succeeds: counting only after a failed check would let
 * parallel guesses all pass the check before any of them is counted. For the same reason it is
 * counted as a success beforehand too, and that count is taken back when it fails.
 */
export function createSignInThrottle(store: CounterStore, limits: RateLimits) {
  const count = async (key: string, { limit, windowMs }: Limit) => {
    const { count, resetInMs } = await store.increment(key, windowMs)
    return { key, blockedFor: count > limit ? resetInMs : null }
  }
  return {
    /**
     * Counts this sign-in attempt against the IP and, only when the IP is within its limit, against
     * the account, then the account's sign-ins: any email makes a new account key, so an address
     * over its limit must not make more (a flood of them would crowd the store). An attempt a
     * later limit refuses is taken back from the earlier ones, since no password was tried.
     */
    async signInAttempt(route: SignInRoute, account: string, ip: string): Promise<SignInRefusal | null> {
      const perIp = await count(ipKey(route, ip), limits.failedLoginsPerIp)
      if (perIp.blockedFor !== null) return { limit: 'failures', retryInMs: perIp.blockedFor }
      const perAccount = await count(accountKey(route, account), limits.failedLoginsPerAccount)
      if (perAccount.blockedFor !== null) {
        await store.decrement(perIp.key)
        return { limit: 'failures', retryInMs: perAccount.blockedFor }
      }
      const signIns = await count(accountKey(route, account, 'sign-ins'), limits.signInsPerAccount)
      if (signIns.blockedFor === null) return null
      await Promise.all([store.decrement(perIp.key), store.decrement(perAccount.key)])
      return { limit: 'sign-ins', retryInMs: signIns.blockedFor }
    },
    /**
     * A successful sign-in clears the account's failures and takes its attempt back from the IP
     * (not the IP's other failures: others may be guessing from there); it stays a sign-in.
     */
    async signInSucceeded(route: SignInRoute, account: string, ip: string): Promise<void> {
      await Promise.all([store.reset(accountKey(route, account)), store.decrement(ipKey(route, ip))])
    },
    /**
     * A right password whose account asks for a second factor: not a sign-in yet, so it is taken
     * back from the account's sign-ins and from the IP, but it stays a failure of the account until
     * the second factor succeeds (`signInSucceeded` clears it). Otherwise each password step would
     * clear the failures of the codes guessed before it, and the lockout would never come.
     */
    async passwordStepPassed(route: SignInRoute, account: string, ip: string): Promise<void> {
      await Promise.all([store.decrement(accountKey(route, account, 'sign-ins')), store.decrement(ipKey(route, ip))])
    },
    /** A failed sign-in stays a failure and is taken back from the account's sign-ins. */
    async signInFailed(route: SignInRoute, account: string): Promise<void> {
      await store.decrement(accountKey(route, account, 'sign-ins'))
    },
    /** Counts this sign-up attempt; blocked once the IP's attempts exceed the limit. */
    async signupBlockedFor(ip: string): Promise<number | null> {
      return (await count(ipKey('signup', ip), limits.signupsPerIp)).blockedFor
    },
    /**
     * Counts a password-reset request against the IP and, only when the IP is within its limit,
     * against the address (normalised, hashed like an account), for the reason `signInAttempt` says.
     */
    async passwordResetBlockedFor(email: string, ip: string): Promise<number | null> {
      const perIp = await count(ipKey('password-reset', ip), limits.passwordResetsPerIp)
      if (perIp.blockedFor !== null) return perIp.blockedFor
      const perAddress = await count(accountKey('password-reset', email), limits.passwordResetsPerAddress)
      if (perAddress.blockedFor !== null) await store.decrement(perIp.key)
      return perAddress.blockedFor
    },
    /** Counts a request to resend the verification mail; blocked once the account's exceed the limit. */
    async verificationMailBlockedFor(userId: string): Promise<number | null> {
      return (await count(accountKey('email-verification', userId), limits.verificationMailsPerAccount)).blockedFor
    }
  }
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>
