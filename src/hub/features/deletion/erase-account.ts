import type { Kysely } from 'kysely'
import { flushErasedPages } from '../../../shared/database/erased-pages.js'
import type { Database } from '../../../shared/database/schema.js'
import { SECURITY_EVENT_TYPES } from '../../../shared/security-events/security-event-token.js'
import { lockAdministrators, refuseLastAdministrator } from '../../kernel/accounts/roles.js'
import { createAuditTrail } from '../../kernel/audit/repository.js'
import { createMailQueue } from '../../kernel/mail/queue.js'
import { accountDeletedMail } from './mails.js'
import type { Language } from '../../kernel/language/language.js'
import type { ErasureStep } from '../../kernel/records/erasure.js'
import type { SecurityEventOutbox } from '../../kernel/security-events/outbox.js'

export interface AccountToErase {
  userId: string
  /** Where the confirmation goes; empty when an external provider gave no address. */
  email: string
  language: Language
}

export interface AccountErasureOptions {
  db: Kysely<Database>
  outbox: SecurityEventOutbox
  /** HUB_PUBLIC_URL, for the confirmation's link. */
  publicUrl: string
  /** What each part of the hub erases, in order (`erasureSteps`, which checks that every table naming users is listed). */
  steps: readonly ErasureStep[]
}

/**
 * Erases everything the hub holds about a person, in one transaction: the `users` row, then what
 * each part of the hub declares in its step (`steps`), in order. It leaves exactly four
 * things behind (docs/account.md, "Deletion"):
 * - the `account.deleted` audit record: the user id and the time, no address, no IP;
 * - the confirmation mail, queued with no user id, which the sender deletes once it is sent;
 * - an `account-purged` event per application taking events, deleted once delivered;
 * - the OpenID Connect provider's sessions (the account id and the applications signed in), which
 *   the hub deletes within seconds as it sends their back-channel logouts (docs/oidc.md).
 * Sessions are deleted here too; the caller that holds the hub's session cache ends them first
 * through it, so this instance stops trusting them at once (others within their 4 s). Once
 * committed, the erased rows are flushed out of SQLite's log and file (`flushErasedPages`).
 */
export async function eraseAccount({ db, outbox, publicUrl, steps }: AccountErasureOptions, account: AccountToErase, now: Date): Promise<void> {
  const { userId } = account
  const confirmation = accountDeletedMail({ publicUrl, language: account.language, email: account.email })
  await db.transaction().execute(async (trx) => {
    // Never the hub's last enabled administrator (409): checked under the lock every change that
    // may take an administrator away takes, so two deletions at once cannot both pass.
    await lockAdministrators(trx)
    await refuseLastAdministrator(trx, userId)
    // The account's row first: a login starting a session reads it FOR SHARE (see
    // `insertForEnabledAccount`), so it either committed before this delete, and its session is
    // deleted below, or waits for this transaction and then finds no account.
    await trx.deleteFrom('users').where('id', '=', userId).execute()
    for (const step of steps) {
      for (const table of step.tables) {
        // Every table of the union has the column; the cast stands for "any one of them".
        await trx.deleteFrom(table as 'sessions').where('userId', '=', userId).execute()
      }
      await step.erase?.(trx, userId)
    }
    // An external provider may have given no address: then there is no one to write to.
    if (account.email !== '') await createMailQueue(trx).enqueue({ ...confirmation, to: account.email, userId: null }, now, trx)
    await outbox.record(trx, SECURITY_EVENT_TYPES.accountPurged, userId, now)
    await createAuditTrail(trx).record({ userId, type: 'account.deleted' }, now)
  })
  await flushErasedPages(db)
}
