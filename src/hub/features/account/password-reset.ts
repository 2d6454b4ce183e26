import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { failureForLog } from '../../../shared/database/availability.js'
import { badRequest } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { tooManyRequests } from '../../kernel/http/http-errors.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import type { Sessions } from '../../kernel/sessions/sessions.js'
import type { SecurityEventOutbox } from '../../kernel/security-events/outbox.js'
import { SECURITY_EVENT_TYPES } from '../../../shared/security-events/security-event-token.js'
import type { Language } from '../../kernel/language/language.js'
import { normaliseEmail, passwordProblem } from '../../kernel/accounts/credentials.js'
import { hashPassword } from '../../kernel/accounts/password-hashing.js'
import type { AccountMail } from '../../kernel/mail/account-mail.js'
import { type RemoveApplications, removeWaysInOfEarlierHolder } from './first-proof.js'
import { browserLanguageOf } from '../../kernel/language/account-language.js'
import { Done, FirstProofReset, PasswordResetConfirmation, PasswordResetRequest } from './schemas.js'

export interface PasswordResetDependencies {
  db: Kysely<Database>
  accountMail: AccountMail
  sessions: Sessions
  /** Tells the applications that the account's sessions ended (`sessions-revoked`). */
  securityEvents: SecurityEventOutbox
  throttle: SignInThrottle
  audit: AuditRequest
  /** On a first proof of the address, the applications its earlier holder let sign in go too. */
  removeApplications: RemoveApplications
  now: () => Date
}

/** One answer for every token that does not work, so none tells what became of a link. */
export const INVALID_RESET_LINK = 'This link is invalid or has expired; ask for a new one'

/** Password reset by mailed link (docs/account.md, "Password reset"); built-in provider only. */
export async function passwordResetRoutes(app: App, deps: PasswordResetDependencies) {
  const { db, accountMail, sessions, securityEvents, throttle, audit, now } = deps
  // Requests still mailing after their answer; the hub waits for them when it closes.
  const inFlight = new Set<Promise<void>>()
  app.addHook('onClose', async () => {
    await Promise.allSettled(inFlight)
  })

  /** Mails a link to the account with this address, when there is one that may sign in; answers its id. */
  const mailResetLink = async (email: string, requestLanguage: Language, at: Date): Promise<string | null> => {
    const user = await db.selectFrom('users').select(['id', 'email', 'locale']).where('email', '=', email).where('disabled', '=', 0).executeTakeFirst()
    if (!user) return null
    await accountMail.sendPasswordReset({ userId: user.id, email: user.email, locale: user.locale, requestLanguage }, at)
    return user.id
  }

  app.post(
    '/api/auth/password-reset',
    {
      schema: {
        summary: 'Mail a password-reset link to this address if it has an account; answers alike either way',
        tags: ['auth'],
        body: PasswordResetRequest,
        response: { 204: Done, ...errorResponses(400, 403, 429) }
      }
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email)
      const wait = await throttle.passwordResetBlockedFor(email, request.ip)
      if (wait !== null) throw tooManyRequests(reply, wait, 'Too many password-reset requests; try again later')
      // Not awaited: looking the account up and queueing its mail would make a known address
      // answer later than an unknown one, telling the caller which addresses have accounts.
      const work = mailResetLink(email, browserLanguageOf(request), now())
        .then(async (userId) => {
          if (userId !== null) await audit(request, { userId, type: 'password.reset.requested' })
        })
        .catch((error: unknown) => request.log.error(failureForLog(error), 'queueing a password-reset mail failed'))
        .finally(() => inFlight.delete(work))
      inFlight.add(work)
      return reply.code(204).send(null)
    }
  )

  app.post(
    '/api/auth/password-reset/confirm',
    {
      schema: {
        summary:
          'Set a new password with the token of a reset link; ends every session of the account. When the address was not verified before, also removes every passkey, two-step sign-in and application grant (200, saying what went)',
        tags: ['auth'],
        body: PasswordResetConfirmation,
        response: { 200: FirstProofReset, 204: Done, ...errorResponses(400, 403) }
      }
    },
    async (request, reply) => {
      const { token, password } = request.body
      // Checked before the token is used up, so a refused password leaves the link working.
      const problem = passwordProblem(password)
      if (problem) throw badRequest(problem)
      const passwordHash = await hashPassword(password)
      const at = now()
      const account = await db.transaction().execute(async (trx) => {
        const userId = await accountMail.tokens.consume(token, 'password-reset', at, trx)
        if (userId === null) return undefined
        // The link reached this address, which proves it as well as a verification link would.
        // Whether it is the first proof is answered by the update that sets the flag, so of two
        // proofs racing only one finds it unset.
        const proven = await trx.updateTable('users').set({ emailVerified: 1 }).where('id', '=', userId).where('emailVerified', '=', 0).executeTakeFirst()
        const user = await trx
          .updateTable('users')
          .set({ passwordHash, emailVerified: 1, updatedAt: at.toISOString() })
          .where('id', '=', userId)
          .returning(['id', 'email', 'locale'])
          .executeTakeFirst()
        if (!user) return undefined
        const changed = { userId: user.id, email: user.email, locale: user.locale, requestLanguage: browserLanguageOf(request) }
        // Until now anyone could have made the account with this address: what they added to it
        // would outlast the reset (account pre-hijacking, docs/account.md), so it goes.
        const removed = Number(proven.numUpdatedRows) > 0 ? await removeWaysInOfEarlierHolder(trx, user.id, at, deps.removeApplications) : null
        // An address change asked for with the old password may be how someone else keeps the
        // account; a pending verification link has nothing left to prove.
        await accountMail.tokens.cancel(user.id, removed ? ['email-change', 'email-verification'] : ['email-change'], trx)
        await accountMail.sendPasswordChanged(changed, at, trx, { firstProofOfAddress: removed !== null })
        await securityEvents.record(trx, SECURITY_EVENT_TYPES.sessionsRevoked, user.id, at)
        return { ...changed, removed }
      })
      if (!account) throw badRequest(INVALID_RESET_LINK)
      // After the commit, so a session begun with the old password while it ran ends too.
      const endedSessions = await sessions.revokeAllOf(account.userId)
      if (account.removed === null) {
        await audit(request, { userId: account.userId, type: 'password.reset', detail: { endedSessions } })
        return reply.code(204).send(null)
      }
      const removed = { ...account.removed, sessions: endedSessions }
      await audit(request, { userId: account.userId, type: 'password.reset', detail: { endedSessions, firstProofOfAddress: true, removed } })
      return reply.code(200).send({ removed })
    }
  )
}
