import type { Kysely } from 'kysely'
import { badRequest, forbidden } from '../../../shared/errors.js'
import { conflict } from '../http/http-errors.js'
import type { Database } from '../../../shared/database/schema.js'
import type { Language } from '../language/language.js'
import { hashMailToken } from '../mail/mail-tokens.js'
import type { Accounts } from './accounts.js'
import { emailProblem, normaliseEmail, passwordProblem } from './credentials.js'
import { joinGroups } from './groups.js'

/**
 * Using an administrator's invitation (docs/administration.md, "Invitations"): the sign-up that
 * carries one, whichever page sends it. The invitations feature sends and withdraws them; the
 * sign-in feature's sign-up uses them; both meet here.
 */

/** How long an invitation's link works. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000

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
  const at = now.toISOString()
  const invitation = TOKEN_FORMAT.test(use.token)
    ? await db.selectFrom('invitations').selectAll().where('tokenHash', '=', hashMailToken(use.token)).executeTakeFirst()
    : undefined
  if (!invitation || invitation.usedAt !== null || invitation.withdrawnAt !== null || invitation.expiresAt <= at) throw forbidden(INVITATION_REFUSED)
  if (invitation.email !== email) throw forbidden(INVITATION_FOR_ANOTHER_ADDRESS)
  if (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) throw conflict(ADDRESS_HAS_ACCOUNT)
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

/** The stored JSON array of group ids; anything else reads as none. */
export function groupIdsOf(stored: string): string[] {
  try {
    const parsed: unknown = JSON.parse(stored)
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : []
  } catch {
    return []
  }
}
