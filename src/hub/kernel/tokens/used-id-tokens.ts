import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { VerifiedIdToken } from './identity.js'

/** The ID tokens set-cookie has accepted, so that each is accepted once. */
export function createUsedIdTokens(db: Kysely<Database>) {
  return {
    /**
     * Records the token as used; false when it already was. The primary key decides, so of two
     * requests racing with one token only one wins. Tokens that no longer verify need no record:
     * theirs are pruned on the way (an indexed range, small since tokens live minutes).
     */
    async markUsed({ replayKey, acceptedUntil }: Pick<VerifiedIdToken, 'replayKey' | 'acceptedUntil'>, now: Date): Promise<boolean> {
      await db.deleteFrom('usedIdTokens').where('acceptedUntil', '<=', now.toISOString()).execute()
      const result = await db
        .insertInto('usedIdTokens')
        .values({ replayKey, acceptedUntil: acceptedUntil.toISOString() })
        .onConflict((conflict) => conflict.column('replayKey').doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    }
  }
}

export type UsedIdTokens = ReturnType<typeof createUsedIdTokens>
