import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { SECURITY_EVENT_TYPES } from '../../../shared/security-events/security-event-token.js'
import { createAuditTrail } from '../audit/repository.js'
import type { SecurityEventOutbox } from '../security-events/outbox.js'
import { normaliseEmail } from './credentials.js'

export interface AccountStatusChange {
  userId: string
  email: string
  /** Sessions ended by disabling (0 when enabling). */
  endedSessions: number
}

/**
 * Disables or re-enables a built-in account; undefined when no account has this email.
 *
 * Disabling also deletes the account's sessions in the same transaction: a disabled account
 * cannot log in, and whoever holds one of its sessions (perhaps the reason it is disabled) must
 * not stay signed in until the session expires. The account's audit trail records the change, and
 * `securityEvents`, when given, the `sessions-revoked` event for the applications.
 */
export async function setAccountDisabled(
  db: Kysely<Database>,
  email: string,
  disabled: boolean,
  now: Date,
  securityEvents?: SecurityEventOutbox
): Promise<AccountStatusChange | undefined> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({ disabled: disabled ? 1 : 0, updatedAt: now.toISOString() })
      .where('email', '=', normaliseEmail(email))
      .returning(['id', 'email'])
      .executeTakeFirst()
    if (!user) return undefined
    const ended = disabled ? await trx.deleteFrom('sessions').where('userId', '=', user.id).executeTakeFirst() : undefined
    const endedSessions = Number(ended?.numDeletedRows ?? 0)
    if (disabled) await securityEvents?.record(trx, SECURITY_EVENT_TYPES.sessionsRevoked, user.id, now)
    await createAuditTrail(trx).record({
      userId: user.id,
      type: disabled ? 'account.disabled' : 'account.enabled',
      detail: disabled ? { endedSessions } : {}
    })
    return { userId: user.id, email: user.email, endedSessions }
  })
}
