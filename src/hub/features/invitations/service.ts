import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { SignupMode } from '../../../shared/config.js'
import { badRequest, notFound } from '../../../shared/errors.js'
import type { Database } from '../../../shared/database/schema.js'
import { emailProblem, normaliseEmail } from '../../kernel/accounts/credentials.js'
import { groupNamesById, groupsNamed } from '../../kernel/accounts/groups.js'
import { ADDRESS_HAS_ACCOUNT, INVITATION_LIFETIME_MS, groupIdsOf } from '../../kernel/accounts/invitations.js'
import type { AuditEventInput } from '../../kernel/audit/events.js'
import { conflict } from '../../kernel/http/http-errors.js'
import type { Language } from '../../kernel/language/language.js'
import { hashMailToken, newMailToken } from '../../kernel/mail/mail-tokens.js'
import { createMailQueue } from '../../kernel/mail/queue.js'
import { invitationLink, invitationMail } from './mails.js'

/**
 * Sending and withdrawing invitations (docs/administration.md, "Invitations"): the rules the admin
 * API, the console and `invitations:add` share. Using one is the kernel's (`acceptInvitation`), for
 * the sign-up that carries it.
 */

export const INVITATION_REFUSALS = {
  closed: 'HUB_SIGNUP is closed: nobody signs up, invited or not. Set HUB_SIGNUP=invite to invite people',
  hasAccount: ADDRESS_HAS_ACCOUNT,
  noPending: 'No pending invitation has this id'
} as const

/** The 400 of a group name no group has. */
export const unknownGroup = (name: string) => badRequest(`No group is named ${name}`)

export interface PendingInvitation {
  id: string
  email: string
  /** The names of its groups that still exist. */
  groups: string[]
  /** The administrator's address; null when sent from the terminal (or their account is gone). */
  invitedBy: string | null
  createdAt: string
  expiresAt: string
}

export interface SentInvitation extends PendingInvitation {
  /** The link the mail carries; the terminal prints it, the API and the console never show it. */
  link: string
}

/** Who sends or withdraws: the administrator, on whose trail it is recorded; null from the terminal, which records nothing. */
export interface InvitationActor {
  userId: string
  record: (event: AuditEventInput) => Promise<void>
}

export interface InviteInput {
  email: string
  /** Group names, compared whatever their case. */
  groups?: readonly string[] | undefined
  /** The mail's language. */
  language: Language
}

export function createInvitations(db: Kysely<Database>, options: { signup: SignupMode; publicUrl: string; now: () => Date }) {
  const queue = createMailQueue(db)
  const pendingRows = (at: string) =>
    db
      .selectFrom('invitations')
      .leftJoin('users', 'users.id', 'invitations.invitedBy')
      .select(['invitations.id', 'invitations.email', 'invitations.groupIds', 'users.email as invitedBy', 'invitations.createdAt', 'invitations.expiresAt'])
      .where('invitations.usedAt', 'is', null)
      .where('invitations.withdrawnAt', 'is', null)
      .where('invitations.expiresAt', '>', at)

  return {
    /**
     * Invites the address: a fresh token, kept only as its hash, and the mail carrying the link,
     * queued in the same transaction. An earlier pending invitation of the address is withdrawn, so
     * that only the newest link works.
     */
    async invite(input: InviteInput, actor: InvitationActor | null): Promise<SentInvitation> {
      if (options.signup === 'closed') throw conflict(INVITATION_REFUSALS.closed)
      const problem = emailProblem(input.email)
      if (problem) throw badRequest(problem)
      const email = normaliseEmail(input.email)
      if (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) throw conflict(INVITATION_REFUSALS.hasAccount)
      const { groups, unknown } = await groupsNamed(db, input.groups ?? [])
      const [missing] = unknown
      if (missing !== undefined) throw unknownGroup(missing)
      const now = options.now()
      const token = newMailToken()
      const invitation = {
        id: randomUUID(),
        email,
        tokenHash: hashMailToken(token),
        groupIds: JSON.stringify(groups.map((group) => group.id)),
        invitedBy: actor?.userId ?? null,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
        usedAt: null,
        withdrawnAt: null
      }
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('invitations').set({ withdrawnAt: invitation.createdAt }).where('email', '=', email).where('usedAt', 'is', null).where('withdrawnAt', 'is', null).execute()
        await trx.insertInto('invitations').values(invitation).execute()
        const mail = invitationMail({ publicUrl: options.publicUrl, language: input.language, email, token })
        await queue.enqueue({ ...mail, to: email, userId: null }, now, trx)
      })
      await actor?.record({ userId: actor.userId, type: 'invitation.sent', detail: { invitationId: invitation.id, email, groups: groups.map((group) => group.name) } })
      const invitedBy = actor ? ((await db.selectFrom('users').select('email').where('id', '=', actor.userId).executeTakeFirst())?.email ?? null) : null
      return {
        id: invitation.id,
        email,
        groups: groups.map((group) => group.name).sort((a, b) => a.localeCompare(b)),
        invitedBy,
        createdAt: invitation.createdAt,
        expiresAt: invitation.expiresAt,
        link: invitationLink(options.publicUrl, token, email)
      }
    },

    /** The invitations that can still be used, newest first. */
    async pending(): Promise<PendingInvitation[]> {
      const rows = await pendingRows(options.now().toISOString()).orderBy('invitations.createdAt', 'desc').orderBy('invitations.id').execute()
      return Promise.all(rows.map(async ({ groupIds, ...row }) => ({ ...row, groups: await groupNamesById(db, groupIdsOf(groupIds)) })))
    },

    /** Withdraws a pending invitation: its link stops working. */
    async withdraw(id: string, actor: InvitationActor | null): Promise<void> {
      const at = options.now().toISOString()
      const withdrawn = await db
        .updateTable('invitations')
        .set({ withdrawnAt: at })
        .where('id', '=', id)
        .where('usedAt', 'is', null)
        .where('withdrawnAt', 'is', null)
        .where('expiresAt', '>', at)
        .returning(['email'])
        .executeTakeFirst()
      if (!withdrawn) throw notFound(INVITATION_REFUSALS.noPending)
      await actor?.record({ userId: actor.userId, type: 'invitation.withdrawn', detail: { invitationId: id, email: withdrawn.email } })
    }
  }
}

export type Invitations = ReturnType<typeof createInvitations>
