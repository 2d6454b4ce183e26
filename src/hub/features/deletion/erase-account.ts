import type { Kysely } from 'kysely'
import { flushErasedPages } from '../../../shared/database/erased-pages.js'
import type { Database, UserKeyedTable } from '../../../shared/database/schema.js'
import { SECURITY_EVENT_TYPES } from '../../../shared/security-events/security-event-token.js'
import { createAuditTrail } from '../../kernel/audit/repository.js'
import { createMailQueue } from '../../kernel/mail/queue.js'
import { accountDeletedMail } from '../../kernel/mail/templates.js'
import type { Language } from '../../kernel/language/language.js'
import type { SecurityEventOutbox } from '../../kernel/security-events/outbox.js'

/**
 * What erasure deletes by `userId`: every such table, checked by the compiler, so a new table
 * naming users does not build until it is listed here. The task manager's tasks are named by
 * `assignee` and erased by the task manager itself, on the `account-purged` event.
 */
const ERASED_BY_USER_ID = {
  sessions: true,
  privacySettings: true,
  consents: true,
  accessGrants: true,
  auditEvents: true,
  mailQueue: true,
  mailTokens: true,
  // Events not yet delivered: `account-purged`, recorded below, supersedes them.
  securityEventOutbox: true,
  totpCredentials: true,
  recoveryCodes: true,
  loginChallenges: true,
  passkeys: true,
  passkeyChallenges: true,
  knownDevices: true,
  // The task manager's browser sessions; it also ends them itself on `account-purged`.
  tasksSessions: true,
  // Stripe's own records stay with Stripe; the hub's copies go. The subscription is canceled at
  // Stripe before erasure starts (docs/billing.md).
  billingSubscriptions: true,
  billingCustomers: true,
  billingInvoices: true
} as const satisfies Record<UserKeyedTable, true>

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
}

/**
 * Erases everything the hub holds about a person, in one transaction, and leaves exactly four
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
export async function eraseAccount({ db, outbox, publicUrl }: AccountErasureOptions, account: AccountToErase, now: Date): Promise<void> {
  const { userId } = account
  const confirmation = accountDeletedMail({ publicUrl, language: account.language, email: account.email })
  await db.transaction().execute(async (trx) => {
    // The account's row first: a login starting a session reads it FOR SHARE (see
    // `insertForEnabledAccount`), so it either committed before this delete, and its session is
    // deleted below, or waits for this transaction and then finds no account.
    await trx.deleteFrom('users').where('id', '=', userId).execute()
    for (const table of Object.keys(ERASED_BY_USER_ID) as UserKeyedTable[]) {
      // Every table of the union has the column; the cast stands for "any one of them".
      await trx.deleteFrom(table as 'sessions').where('userId', '=', userId).execute()
    }
    // The OpenID Connect provider's grants and tokens name the person as their account; its
    // sessions, whose hub sessions end here, are left for ended-hub-sessions.ts to log out.
    await trx.deleteFrom('oidcProviderRecords').where('accountId', '=', userId).where('model', '<>', 'Session').execute()
    // An external provider may have given no address: then there is no one to write to.
    if (account.email !== '') await createMailQueue(trx).enqueue({ ...confirmation, to: account.email, userId: null }, now, trx)
    await outbox.record(trx, SECURITY_EVENT_TYPES.accountPurged, userId, now)
    await createAuditTrail(trx).record({ userId, type: 'account.deleted' }, now)
  })
  await flushErasedPages(db)
}
