import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'

/** How long a login waits for its second factor. */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000
/** Codes tried on one challenge, the right one included; a sixth needs the password again. */
export const CHALLENGE_MAX_ATTEMPTS = 5

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export interface PendingLogin {
  userId: string
  /** Attempts left after this one. */
  attemptsLeft: number
}

/**
 * Logins past their password step, waiting for the second factor: in the database, so any
 * instance can finish one, and by hash only. A challenge names one account and one password step:
 * it holds a fingerprint of the password hash that step matched, and is void once that changes.
 */
/** An account without a password (made with a passkey) passes no password step; typed all the same, its fingerprint is the empty string's, which no hash has. */
const fingerprintOf = (passwordHash: string | null) => sha256(passwordHash ?? '')

export function createLoginChallenges(db: Kysely<Database>) {
  return {
    /** A challenge for the account whose current password was just matched; its own expired ones are swept. */
    async issue(userId: string, passwordHash: string | null, now: Date): Promise<string> {
      const challenge = randomBytes(32).toString('base64url')
      await db.deleteFrom('loginChallenges').where('userId', '=', userId).where('expiresAt', '<=', now.toISOString()).execute()
      await db
        .insertInto('loginChallenges')
        .values({
          challengeHash: sha256(challenge),
          userId,
          passwordFingerprint: fingerprintOf(passwordHash),
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS).toISOString()
        })
        .execute()
      return challenge
    },

    /** The account of a live challenge with attempts left, without counting one. */
    async accountOf(challenge: string, now: Date): Promise<string | undefined> {
      const row = await db
        .selectFrom('loginChallenges')
        .select('userId')
        .where('challengeHash', '=', sha256(challenge))
        .where('expiresAt', '>', now.toISOString())
        .where('attempts', '<', CHALLENGE_MAX_ATTEMPTS)
        .executeTakeFirst()
      return row?.userId
    },

    /**
     * Counts an attempt on the challenge before its code is checked (so parallel guesses cannot
     * all pass a check made before any of them counted); undefined when it is expired, spent, or
     * no longer matches the account's password hash.
     */
    async attempt(challenge: string, passwordHash: string | null, now: Date): Promise<PendingLogin | undefined> {
      const row = await db
        .updateTable('loginChallenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('challengeHash', '=', sha256(challenge))
        .where('expiresAt', '>', now.toISOString())
        .where('attempts', '<', CHALLENGE_MAX_ATTEMPTS)
        .returning(['userId', 'attempts', 'passwordFingerprint'])
        .executeTakeFirst()
      if (!row || !timingSafeEqual(Buffer.from(row.passwordFingerprint), Buffer.from(fingerprintOf(passwordHash)))) return undefined
      return { userId: row.userId, attemptsLeft: CHALLENGE_MAX_ATTEMPTS - row.attempts }
    },

    /** Ends the challenge once its login succeeded; false when another request already did. */
    async consume(challenge: string): Promise<boolean> {
      const deleted = await db.deleteFrom('loginChallenges').where('challengeHash', '=', sha256(challenge)).returning('userId').executeTakeFirst()
      return deleted !== undefined
    }
  }
}

export type LoginChallenges = ReturnType<typeof createLoginChallenges>
