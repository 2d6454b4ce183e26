import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, PasskeyChallengesTable } from '../../../shared/database/schema.js'

/** How long a ceremony may take, from options to response; also the `timeout` the browser is given. */
export const PASSKEY_CEREMONY_MS = 5 * 60_000

/** Who a registration challenge was issued to: one account, in one session. */
export interface ChallengeOwner {
  userId: string
  sessionHandle: string
}

const hashOf = (challenge: string) => createHash('sha256').update(challenge).digest('base64url')

/**
 * Passkey challenges, kept in the database so any instance can finish a ceremony another began,
 * and each is used once across all of them: taking one deletes its row, and only the request
 * whose delete removed it goes on.
 */
export function createPasskeyChallenges(db: Kysely<Database>) {
  const issue = async (purpose: PasskeyChallengesTable['purpose'], owner: ChallengeOwner | null, now: Date): Promise<string> => {
    const challenge = randomBytes(32).toString('base64url')
    // Abandoned ceremonies are swept by the next one begun, on the index.
    await db.deleteFrom('passkeyChallenges').where('expiresAt', '<=', now.toISOString()).execute()
    await db
      .insertInto('passkeyChallenges')
      .values({
        challengeHash: hashOf(challenge),
        purpose,
        userId: owner?.userId ?? null,
        sessionHandle: owner?.sessionHandle ?? null,
        expiresAt: new Date(now.getTime() + PASSKEY_CEREMONY_MS).toISOString()
      })
      .execute()
    return challenge
  }

  const take = async (challenge: string, purpose: 'registration' | 'authentication', owner: ChallengeOwner | null, now: Date): Promise<boolean> => {
    let query = db
      .deleteFrom('passkeyChallenges')
      .where('challengeHash', '=', hashOf(challenge))
      .where('purpose', '=', purpose)
      .where('expiresAt', '>', now.toISOString())
    query = owner ? query.where('userId', '=', owner.userId).where('sessionHandle', '=', owner.sessionHandle) : query.where('userId', 'is', null)
    const deleted = await query.executeTakeFirst()
    return Number(deleted.numDeletedRows) > 0
  }

  return {
    /** A new registration challenge for this account and session. */
    issueForRegistration: (owner: ChallengeOwner, now: Date) => issue('registration', owner, now),
    /** A new sign-in challenge, bound to nobody: the assertion names the account. */
    issueForAuthentication: (now: Date) => issue('authentication', null, now),
    /** Uses up a registration challenge; true only when it was this session's, unexpired and unused. */
    takeForRegistration: (challenge: string, owner: ChallengeOwner, now: Date) => take(challenge, 'registration', owner, now),
    /** Uses up a sign-in challenge; true only when it was unexpired and unused. */
    takeForAuthentication: (challenge: string, now: Date) => take(challenge, 'authentication', null, now),
    /** A new registration challenge for an account not made yet: the id it will have, and what its maker holds (`binding`). */
    issueForNewAccount: (userId: string, binding: string, now: Date) => issue('new-account', { userId, sessionHandle: binding }, now),
    /** Uses up a new account's challenge; the id the account is to have when it was `binding`'s, unexpired and unused, else null. */
    async takeForNewAccount(challenge: string, binding: string, now: Date): Promise<string | null> {
      const taken = await db
        .deleteFrom('passkeyChallenges')
        .where('challengeHash', '=', hashOf(challenge))
        .where('purpose', '=', 'new-account')
        .where('sessionHandle', '=', binding)
        .where('expiresAt', '>', now.toISOString())
        .returning('userId')
        .executeTakeFirst()
      return taken?.userId ?? null
    }
  }
}

export type PasskeyChallenges = ReturnType<typeof createPasskeyChallenges>
