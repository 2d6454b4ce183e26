import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'

/** The tables of two-step sign-in: TOTP credentials and recovery codes (see migration 0046). */
export function createTwoStepRepository(db: Kysely<Database>) {
  return {
    credentialOf(userId: string) {
      return db.selectFrom('totpCredentials').selectAll().where('userId', '=', userId).executeTakeFirst()
    },

    /** A new pending credential, replacing a pending one; never a confirmed one (false then). */
    async savePending(userId: string, secretCiphertext: string, now: Date): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('totpCredentials').where('userId', '=', userId).where('confirmedAt', 'is', null).execute()
        const inserted = await trx
          .insertInto('totpCredentials')
          .values({ userId, secretCiphertext, createdAt: now.toISOString(), confirmedAt: null, lastUsedStep: null })
          .onConflict((conflict) => conflict.column('userId').doNothing())
          .executeTakeFirst()
        return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0
      })
    },

    /**
     * Takes `step` as used when it is newer than every step used before, in one statement, so that
     * two requests with the same code cannot both be accepted. `confirmed` says which state the
     * credential must be in: pending for the set-up's confirmation, confirmed for sign-in.
     */
    async useStep(userId: string, step: number, confirmed: boolean, now: Date, executor: Kysely<Database> = db): Promise<boolean> {
      const result = await executor
        .updateTable('totpCredentials')
        .set(confirmed ? { lastUsedStep: step } : { lastUsedStep: step, confirmedAt: now.toISOString() })
        .where('userId', '=', userId)
        .where('confirmedAt', confirmed ? 'is not' : 'is', null)
        .where((eb) => eb.or([eb('lastUsedStep', 'is', null), eb('lastUsedStep', '<', step)]))
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    /** Removes the credential, its recovery codes and its logins waiting for a code; answers whether it was on. */
    async remove(userId: string, executor: Kysely<Database>): Promise<{ removed: boolean; wasOn: boolean }> {
      const removed = await executor.deleteFrom('totpCredentials').where('userId', '=', userId).returning('confirmedAt').executeTakeFirst()
      await executor.deleteFrom('recoveryCodes').where('userId', '=', userId).execute()
      await executor.deleteFrom('loginChallenges').where('userId', '=', userId).execute()
      return { removed: removed !== undefined, wasOn: removed?.confirmedAt != null }
    },

    async replaceRecoveryCodes(userId: string, codeHashes: readonly string[], now: Date, executor: Kysely<Database>): Promise<void> {
      await executor.deleteFrom('recoveryCodes').where('userId', '=', userId).execute()
      const createdAt = now.toISOString()
      await executor
        .insertInto('recoveryCodes')
        .values(codeHashes.map((codeHash) => ({ codeHash, userId, createdAt })))
        .execute()
    },

    /** Deletes the code if it is this account's: one statement, so it is used once however many ask at once. */
    async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
      const used = await db.deleteFrom('recoveryCodes').where('codeHash', '=', codeHash).where('userId', '=', userId).returning('codeHash').executeTakeFirst()
      return used !== undefined
    },

    /** Which of these accounts have it on (a confirmed credential): the console's list of accounts, a page at once. */
    async onAmong(userIds: readonly string[]): Promise<Set<string>> {
      if (userIds.length === 0) return new Set()
      const rows = await db.selectFrom('totpCredentials').select('userId').where('userId', 'in', userIds).where('confirmedAt', 'is not', null).execute()
      return new Set(rows.map(({ userId }) => userId))
    },

    async recoveryCodesLeft(userId: string): Promise<number> {
      const { count } = await db.selectFrom('recoveryCodes').select((eb) => eb.fn.countAll<number | string>().as('count')).where('userId', '=', userId).executeTakeFirstOrThrow()
      return Number(count)
    }
  }
}

export type TwoStepRepository = ReturnType<typeof createTwoStepRepository>
