import type { Kysely, Selectable } from 'kysely'
import { badRequest, forbidden } from '../../../shared/errors.js'
import { conflict } from '../http/http-errors.js'
import type { Database, InvitationsTable } from '../../../shared/database/schema.js'
import type { Language } from '../language/language.js'
import { hashMailToken } from '../mail/mail-tokens.js'
import type { Accounts } from './accounts.js'
import type { UsersRepository } from './repository.js'
import { emailProblem, normaliseEmail, passwordProblem } from './credentials.js'
import { joinGroups } from './groups.js'

/**
 * Using an administrator's invitation (docs/administration.md, "Invitations"): the sign-up that
 * carries one, whichever page sends it. The invitations feature sends and withdraws them; the
 * sign-in feature's sign-up uses them; both meet here.
 */

/** How long an invitation's link works. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000

/** HUB_SIGNUP=closed: nobody makes an account here, invitation or not. */
export const SIGNUP_CLOSED = 'Sign-up is closed on this hub'

/** The one refusal of an invitation that cannot be used: unknown, used, withdrawn or expired alike. */
export const INVITATION_REFUSED = 'This invitation cannot be used: it was already used, withdrawn or has expired. Ask for a new one'
/** An invitation is for the address it was sent to, and no other. */
export const INVITATION_FOR_ANOTHER_ADDRESS = 'This invitation is for another address'
/** The address already has an account: an invitation makes new accounts only. */
export const ADDRESS_HAS_ACCOUNT = 'An account with this email already exists'

/** 32 bytes in base64url, as every mailed token. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/

export interface InvitationUse {
  token: string
  email: string
  password: string
  locale: Language | null
}

export interface AcceptedInvitation {
  userId: string
  email: string
  locale: Language | null
  invitationId: string
  /** The administrator who sent it; null when it came from the terminal. */
  invitedBy: string | null
}

/**
 * Makes the account an invitation is for: the password is checked first (a refused password spends
 * nothing), then the invitation is spent by one conditional UPDATE (of two uses racing, one wins),
 * then the account is made with its address counted as proven, and put in the invitation's groups
 * that still exist. Should making the account fail, the invitation is given back.
 */
export async function acceptInvitation(db: Kysely<Database>, accounts: Accounts, use: InvitationUse, now: Date): Promise<AcceptedInvitation> {
  const problem = emailProblem(use.email) ?? passwordProblem(use.password)
  if (problem) throw badRequest(problem)
  const email = normaliseEmail(use.email)
  const invitation = await usableInvitation(db, use.token, now)
  if (invitation.email !== email) throw forbidden(INVITATION_FOR_ANOTHER_ADDRESS)
  await spend(db, invitation, now)
  let account
  try {
    account = await accounts.create({ email, password: use.password }, now, use.locale)
  } catch (error) {
    await db.updateTable('invitations').set({ usedAt: null }).where('id', '=', invitation.id).execute()
    throw error
  }
  await db.updateTable('users').set({ emailVerified: 1 }).where('id', '=', account.userId).execute()
  await joinGroups(db, account.userId, groupIdsOf(invitation.groupIds), now)
  return { ...account, invitationId: invitation.id, invitedBy: invitation.invitedBy }
}

/** The invitation a token names, while it can be used; else 403 with the one refusal, whatever the reason. */
export async function usableInvitation(db: Kysely<Database>, token: string, now: Date): Promise<Selectable<InvitationsTable>> {
  const invitation = TOKEN_FORMAT.test(token) ? await db.selectFrom('invitations').selectAll().where('tokenHash', '=', hashMailToken(token)).executeTakeFirst() : undefined
  if (!invitation || invitation.usedAt !== null || invitation.withdrawnAt !== null || invitation.expiresAt <= now.toISOString()) throw forbidden(INVITATION_REFUSED)
  return invitation
}

/**
 * Spends a usable invitation for a new account of its address: 409 when the address has one
 * already; else one conditional UPDATE, so of two uses racing one wins and the other is refused.
 */
async function spend(db: Kysely<Database>, invitation: Selectable<InvitationsTable>, now: Date): Promise<void> {
  if (await db.selectFrom('users').select('id').where('email', '=', invitation.email).executeTakeFirst()) throw conflict(ADDRESS_HAS_ACCOUNT)
  const at = now.toISOString()
  const spent = await db
    .updateTable('invitations')
    .set({ usedAt: at })
    .where('id', '=', invitation.id)
    .where('usedAt', 'is', null)
    .where('withdrawnAt', 'is', null)
    .where('expiresAt', '>', at)
    .returning('id')
    .executeTakeFirst()
  if (!spent) throw forbidden(INVITATION_REFUSED)
}

export interface PasswordlessInvitationUse {
  token: string
  /** The id the account is made with: the one its passkey already carries as user handle. */
  userId: string
  locale: Language | null
}

/**
 * Makes the account an invitation is for without a password (its holder chose a passkey), in one
 * transaction with what `within` stores for it (the passkey): the invitation spent, the account
 * made with its address counted as proven, put in the invitation's groups that still exist. If
 * anything fails, nothing happened: the invitation stays usable. Answers with what `within` answered.
 */
export async function acceptInvitationWithoutPassword<Stored>(
  db: Kysely<Database>,
  users: UsersRepository,
  use: PasswordlessInvitationUse,
  now: Date,
  within: (trx: Kysely<Database>) => Promise<Stored>
): Promise<AcceptedInvitation & { stored: Stored }> {
  const timestamp = now.toISOString()
  return db.transaction().execute(async (trx) => {
    const invitation = await usableInvitation(trx, use.token, now)
    await spend(trx, invitation, now)
    const user = { id: use.userId, email: invitation.email, passwordHash: null, emailVerified: 1, disabled: 0, locale: use.locale, createdAt: timestamp, updatedAt: timestamp }
    if (!(await users.insert(user, trx))) throw conflict(ADDRESS_HAS_ACCOUNT)
    await joinGroups(trx, user.id, groupIdsOf(invitation.groupIds), now)
    const stored = await within(trx)
    return { userId: user.id, email: user.email, locale: use.locale, invitationId: invitation.id, invitedBy: invitation.invitedBy, stored }
  })
}

/** The stored JSON array of group ids; anything else reads as none. */
export function groupIdsOf(stored: string): string[] {
  try {
    const parsed: unknown = JSON.parse(stored)
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : []
  } catch {
    return []
  }
}
