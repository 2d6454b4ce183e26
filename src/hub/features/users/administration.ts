import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { badRequest } from '../../../shared/errors.js'
import { type AccountReference, changeAccountDisabled } from '../../kernel/accounts/account-status.js'
import { normaliseEmail } from '../../kernel/accounts/credentials.js'
import { displayNameProblem, normaliseDisplayName } from '../../kernel/accounts/display-name.js'
import { type Role, isRole, lockAdministrators, refuseLastAdministrator } from '../../kernel/accounts/roles.js'
import type { AuditEventInput } from '../../kernel/audit/events.js'
import { createAuditTrail } from '../../kernel/audit/repository.js'
import { languageOfAccount } from '../../kernel/language/account-language.js'
import type { Language } from '../../kernel/language/language.js'
import type { SecurityEventOutbox } from '../../kernel/security-events/outbox.js'

/**
 * What an administrator does to an account (docs/administration.md, "Users"), as plain functions
 * that the admin API, the console's forms and the terminal's `users:*` commands all call, so none
 * has a rule the others lack. Each change is recorded on the TOUCHED person's trail, naming the
 * administrator in `detail.by` (absent from the terminal), with no address or device: the
 * administrator's device is not the person's, and their activity page must not show it as theirs.
 */

/** Where the account's row is read and written; `db` may be a transaction. */
function whereAccount(account: AccountReference) {
  return typeof account === 'string' ? (['email', '=', normaliseEmail(account)] as const) : (['id', '=', account.userId] as const)
}

/** Stamped with the wall clock, as every audit event is (docs/hub.md, "Audit trail"), not the hub's injectable clock. */
function record(trx: Kysely<Database>, event: AuditEventInput, by: string | undefined): Promise<void> {
  return createAuditTrail(trx).record({ ...event, detail: { ...event.detail, ...(by === undefined ? {} : { by }) } })
}

export interface RoleChange {
  userId: string
  email: string
  role: Role
  /** False when the account already had the role: nothing was written. */
  changed: boolean
}

/**
 * Makes the account an administrator or a member; undefined when there is no such account.
 * Demoting the last enabled administrator is refused (409, `LAST_ADMINISTRATOR`), checked under
 * `lockAdministrators` so that two administrators demoting each other at once cannot both pass.
 */
export async function changeRole(db: Kysely<Database>, account: AccountReference, role: Role, now: Date, by?: string): Promise<RoleChange | undefined> {
  return db.transaction().execute((trx) => changeRoleIn(trx, account, role, now, by))
}

async function changeRoleIn(trx: Kysely<Database>, account: AccountReference, role: Role, now: Date, by: string | undefined): Promise<RoleChange | undefined> {
  if (role === 'member') await lockAdministrators(trx)
  const [column, operator, value] = whereAccount(account)
  const found = await trx.selectFrom('users').select(['id', 'email', 'role']).where(column, operator, value).executeTakeFirst()
  if (!found) return undefined
  const current: Role = isRole(found.role) ? found.role : 'member'
  if (current === role) return { userId: found.id, email: found.email, role, changed: false }
  if (role === 'member') await refuseLastAdministrator(trx, found.id)
  await trx.updateTable('users').set({ role, updatedAt: now.toISOString() }).where('id', '=', found.id).execute()
  await record(trx, { userId: found.id, type: role === 'admin' ? 'account.promoted' : 'account.demoted' }, by)
  return { userId: found.id, email: found.email, role, changed: true }
}

/** What `PATCH /api/admin/users/{userId}` and the console's forms change; each field optional. */
export interface AccountChanges {
  role?: Role | undefined
  disabled?: boolean | undefined
  /** 1–64 visible characters (the display-name rules of the account's own profile). */
  displayName?: string | undefined
}

export interface AccountChangeDependencies {
  db: Kysely<Database>
  /** Tells the applications when disabling ends the sessions (`sessions-revoked`). */
  securityEvents: SecurityEventOutbox
  /** Ends the account's sessions through the hub's session cache, inside the transaction. */
  endSessions: (userId: string, trx: Kysely<Database>) => Promise<number>
  now: () => Date
}

/**
 * Applies the changes in one transaction, role first, then disabled, then the name, each recorded
 * only when it changes something; false when there is no such account. A refusal (400 for the
 * name, 409 for the last administrator) changes nothing at all.
 */
export async function changeAccount({ db, securityEvents, endSessions, now }: AccountChangeDependencies, userId: string, changes: AccountChanges, by: string): Promise<boolean> {
  let displayName: string | undefined
  if (changes.displayName !== undefined) {
    const problem = displayNameProblem(changes.displayName)
    if (problem) throw badRequest(problem)
    displayName = normaliseDisplayName(changes.displayName)
  }
  const at = now()
  return db.transaction().execute(async (trx) => {
    // Taken before anything is read, whatever changes: one lock order for every change of the account.
    await lockAdministrators(trx)
    const found = await trx.selectFrom('users').select(['id', 'disabled', 'displayName']).where('id', '=', userId).executeTakeFirst()
    if (!found) return false
    if (changes.role !== undefined) await changeRoleIn(trx, { userId }, changes.role, at, by)
    if (changes.disabled !== undefined && changes.disabled !== (found.disabled !== 0)) {
      await changeAccountDisabled(trx, { userId }, changes.disabled, at, securityEvents, { by, endSessions })
    }
    if (displayName !== undefined && displayName !== found.displayName) {
      await trx.updateTable('users').set({ displayName, updatedAt: at.toISOString() }).where('id', '=', userId).execute()
      await record(trx, { userId, type: 'account.name-changed' }, by)
    }
    return true
  })
}

/** Records an administrator's change made elsewhere (the sessions ended, two-step sign-in removed) on the person's trail. */
export function recordAdministratorChange(db: Kysely<Database>, userId: string, type: 'account.signed-out-everywhere' | 'account.two-step-removed', by: string, detail: Record<string, unknown> = {}): Promise<void> {
  return record(db, { userId, type, detail }, by)
}

/** What erasing an account takes (`eraseAccount` of src/hub/erasure.ts, handed in by app.ts, every part's step in it). */
export type EraseAccount = (
  options: { db: Kysely<Database>; outbox: SecurityEventOutbox; publicUrl: string },
  account: { userId: string; email: string; language: Language },
  now: Date
) => Promise<void>

export interface AccountDeletionDependencies {
  db: Kysely<Database>
  outbox: SecurityEventOutbox
  publicUrl: string
  erase: EraseAccount
  /** What every feature says must happen first (a Stripe subscription canceled); its failure stops the deletion. */
  beforeErasure: (userId: string) => Promise<void>
  /** Ends the sessions through the hub's session cache first, as the person's own deletion does. */
  endSessions: (userId: string) => Promise<number>
  now: () => Date
}

/**
 * Erases the account as `users:delete` and the person's own deletion do (docs/account.md,
 * "Deletion"); false when there is no such account. The last enabled administrator is refused
 * (409) before anything happens, and again inside the erasure's transaction, under the lock.
 */
export async function deleteAccount({ db, outbox, publicUrl, erase, beforeErasure, endSessions, now }: AccountDeletionDependencies, userId: string): Promise<boolean> {
  const user = await db.selectFrom('users').select(['id', 'email', 'locale']).where('id', '=', userId).executeTakeFirst()
  if (!user) return false
  await refuseLastAdministrator(db, user.id)
  await beforeErasure(user.id)
  await endSessions(user.id)
  // The confirmation goes in the person's chosen language: the administrator's browser is not theirs.
  await erase({ db, outbox, publicUrl }, { userId: user.id, email: user.email, language: languageOfAccount(user.locale) }, now())
  return true
}
