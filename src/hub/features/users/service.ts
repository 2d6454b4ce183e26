import { notFound } from '../../../shared/errors.js'
import type { FeaturesDeclared } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { type AccountChanges, type EraseAccount, changeAccount, deleteAccount, recordAdministratorChange } from './administration.js'
import { type ListedUser, createUserDirectory } from './directory.js'

export const USER_NOT_FOUND = 'No account has this id'

/**
 * The administrator's dealings with accounts, as both the admin API and the console's forms make
 * them (the terminal calls the same functions of ./administration.ts): every one takes the
 * administrator's user id (`by`) and answers 404 for an unknown account.
 */
export function createUserAdministration(kernel: Kernel, declared: Pick<FeaturesDeclared, 'accountFacts' | 'secondFactor' | 'beforeErasure'>, erase: EraseAccount) {
  const { db, sessions, securityEvents, now } = kernel
  const directory = createUserDirectory(db, declared.accountFacts)
  const exists = async (userId: string) => {
    if (!(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())) throw notFound(USER_NOT_FOUND)
  }
  return {
    directory,

    /** Changes role, disabled and name at once; answers the account as listed after. */
    async change(userId: string, changes: AccountChanges, by: string): Promise<ListedUser> {
      const endSessions = (id: string, trx: Parameters<typeof sessions.revokeAllOf>[1]) => sessions.revokeAllOf(id, trx)
      if (!(await changeAccount({ db, securityEvents, endSessions, now }, userId, changes, by))) throw notFound(USER_NOT_FOUND)
      const user = await directory.find(userId)
      if (!user) throw notFound(USER_NOT_FOUND)
      return user
    },

    /** Every session ended and the applications told, as "sign out everywhere" does; answers how many ended. */
    async signOut(userId: string, by: string): Promise<number> {
      await exists(userId)
      const ended = await kernel.accountSessions.endAll(userId)
      await recordAdministratorChange(db, userId, 'account.signed-out-everywhere', by, { endedSessions: ended })
      return ended
    },

    /** Two-step sign-in and its recovery codes removed, the person mailed (by the feature that keeps them); answers whether it was on. */
    async resetTwoStep(userId: string, by: string): Promise<boolean> {
      await exists(userId)
      const wasOn = await declared.secondFactor.removeFor(userId, now())
      if (wasOn) await recordAdministratorChange(db, userId, 'account.two-step-removed', by)
      return wasOn
    },

    /** The erasure `users:delete` makes. */
    async delete(userId: string): Promise<void> {
      const deleted = await deleteAccount(
        {
          db,
          outbox: securityEvents,
          publicUrl: kernel.config.publicUrl,
          erase,
          beforeErasure: declared.beforeErasure,
          endSessions: (id) => sessions.revokeAllOf(id),
          now
        },
        userId
      )
      if (!deleted) throw notFound(USER_NOT_FOUND)
    }
  }
}

export type UserAdministration = ReturnType<typeof createUserAdministration>
