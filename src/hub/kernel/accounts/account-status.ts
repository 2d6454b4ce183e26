import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { SECURITY_EVENT_TYPES } from '../../../shared/security-events/security-event-token.js'
import { createAuditTrail } from '../audit/repository.js'
import type { SecurityEventOutbox } from '../security-events/outbox.js'
import { normaliseEmail } from './credentials.js'
import { lockAdministrators, refuseLastAdministrator } from './roles.js'

export interface AccountStatusChange {
  userId: string
  email: string
  /** Sessions ended by disabling (0 when enabling). */
  endedSessions: number
}

/** An account named by its address (the terminal's commands) or its id (the console's). */
export type AccountReference = string | { userId: string }

export interface AccountStatusOptions {
  /** The administrator making the change, recorded as `detail.by` on the account's trail; none from the terminal. */
  by?: string | undefined
  /**
   * Ends the account's sessions inside the transaction and answers how many: the running hub's
   * session cache (`Sessions.revokeAllOf`), so that it stops trusting them at once. By default the
   * rows are deleted, and a running hub stops trusting them within its 4 s cache.
   */
  endSessions?: ((userId: string, trx: Kysely<Database>) => Promise<number>) | undefined
}

/**
 * Disables or re-enables a built-in account; undefined when there is no such account. The
 * terminal's `users:disable` and `users:enable` and the console (docs/administration.md) both
 * come here.
 *
 * Disabling also deletes the account's sessions in the same transaction: a disabled account
 * cannot log in, and whoever holds one of its sessions (perhaps the reason it is disabled) must
 * not stay signed in until the session expires. The last enabled administrator cannot be disabled
 * (409, `LAST_ADMINISTRATOR`), checked under `lockAdministrators`. The account's audit trail
 * records the change, and `securityEvents`, when given, the `sessions-revoked` event for the
 * applications.
 */
export async function setAccountDisabled(
  db: Kysely<Database>,
  account: AccountReference,
  disabled: boolean,
  now: Date,
  securityEvents?: SecurityEventOutbox,
  options: AccountStatusOptions = {}
): Promise<AccountStatusChange | undefined> {
  return db.transaction().execute((trx) => changeAccountDisabled(trx, account, disabled, now, securityEvents, options))
}

/** As `setAccountDisabled`, inside the caller's transaction `trx` (which a change of several fields shares). */
export async function changeAccountDisabled(
  trx: Kysely<Database>,
  account: AccountReference,
  disabled: boolean,
  now: Date,
  securityEvents?: SecurityEventOutbox,
  { by, endSessions }: AccountStatusOptions = {}
): Promise<AccountStatusChange | undefined> {
  if (disabled) await lockAdministrators(trx)
  const found = await trx
    .selectFrom('users')
    .select(['id', 'email'])
    .$if(typeof account === 'string', (query) => query.where('email', '=', normaliseEmail(account as string)))
    .$if(typeof account !== 'string', (query) => query.where('id', '=', (account as { userId: string }).userId))
    .executeTakeFirst()
  if (!found) return undefined
  if (disabled) await refuseLastAdministrator(trx, found.id)
  await trx
    .updateTable('users')
    .set({ disabled: disabled ? 1 : 0, updatedAt: now.toISOString() })
    .where('id', '=', found.id)
    .execute()
  let endedSessions = 0
  if (disabled) {
    endedSessions = endSessions ? await endSessions(found.id, trx) : Number((await trx.deleteFrom('sessions').where('userId', '=', found.id).executeTakeFirst()).numDeletedRows)
    await securityEvents?.record(trx, SECURITY_EVENT_TYPES.sessionsRevoked, found.id, now)
  }
  await createAuditTrail(trx).record(
    {
      userId: found.id,
      type: disabled ? 'account.disabled' : 'account.enabled',
      detail: { ...(disabled ? { endedSessions } : {}), ...(by === undefined ? {} : { by }) }
    }
  )
  return { userId: found.id, email: found.email, endedSessions }
}
