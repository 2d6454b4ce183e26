import { Type } from 'typebox'
import { badRequest, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { isUniqueViolation } from '../../../shared/database/unique-violation.js'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import { conflict } from '../../kernel/http/http-errors.js'
import { emailChangeConfirmationMail, emailChangeNoticeMail } from './mails.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { PASSWORD_INPUT_MAX_LENGTH } from '../../kernel/accounts/schemas.js'
import { EMAIL_MAX_LENGTH, emailProblem, normaliseEmail } from '../../kernel/accounts/credentials.js'
import { requireCurrentPassword } from '../../kernel/sessions/current-password.js'
import type { OwnAccountDependencies } from './dependencies.js'
import { browserLanguageOf, languageOfAccount } from '../../kernel/language/account-language.js'

const EmailChange = Type.Object({
  // A little over the stored maximum, so surrounding spaces are trimmed rather than refused.
  email: Type.String({ maxLength: EMAIL_MAX_LENGTH + 64, description: 'The new address, checked as at sign-up', [PLAIN_TEXT]: true }),
  currentPassword: Type.Optional(Type.String({ maxLength: PASSWORD_INPUT_MAX_LENGTH, description: 'Required when the account has a password' }))
})
const EmailChangeConfirmation = Type.Object({
  token: Type.String({ maxLength: 256, description: 'From the link mailed to the new address (its fragment)', [PLAIN_TEXT]: true })
})

const TAKEN = 'An account with this email already exists'
/** One message for every token that does not move this account: which case it was helps only a guesser. */
const INVALID_LINK = 'The confirmation link is invalid, used or expired'
const tags = ['account']
const done = (description: string) => ({ type: 'null', description }) as const

/**
 * A person moves their account to a new address in two steps: asking (with their password), which
 * mails a link to the new address and a notice to the old one, and using that link, which moves
 * the account. Until then the old address stays the account's, for sign-in and for recovery.
 */
export async function emailChangeRoutes(app: App, deps: OwnAccountDependencies) {
  const { db, ownAccount, users, throttle, mailQueue, mailTokens, audit, publicUrl, now } = deps

  app.post(
    '/api/account/email',
    {
      config: { session: 'required', recentSignIn: true },
      schema: {
        summary: 'Ask to change your address: a confirmation link is mailed to the new one',
        tags,
        body: EmailChange,
        response: { 204: done('Link mailed'), ...errorResponses(400, 401, 403, 409, 429) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const problem = emailProblem(request.body.email)
      if (problem) throw badRequest(problem)
      const newEmail = normaliseEmail(request.body.email)
      const user = await users.findById(session.userId)
      if (!user) throw unauthorized('Sign in required')
      if (newEmail === user.email) throw badRequest('This is already the address of your account')
      // Only after the password: whether an address has an account is not for a stolen session to learn.
      await requireCurrentPassword(throttle, request, reply, user, request.body.currentPassword)
      if (await ownAccount.isTakenByAnother(newEmail, user.id)) throw conflict(TAKEN)

      const requestedAt = now()
      const language = languageOfAccount(user.locale, browserLanguageOf(request))
      await db.transaction().execute(async (trx) => {
        const token = await mailTokens.issue(user.id, 'email-change', requestedAt, trx, newEmail)
        const confirmation = emailChangeConfirmationMail({ publicUrl, language, oldEmail: user.email, newEmail, token })
        const notice = emailChangeNoticeMail({ publicUrl, language, oldEmail: user.email, newEmail })
        await mailQueue.enqueue({ to: newEmail, userId: user.id, ...confirmation }, requestedAt, trx)
        await mailQueue.enqueue({ to: user.email, userId: user.id, ...notice }, requestedAt, trx)
      })
      await audit(request, { userId: user.id, type: 'email.change.requested', detail: { from: user.email, to: newEmail } })
      return reply.code(204).send(null)
    }
  )

  app.post(
    '/api/account/email/confirm',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Use the link mailed to the new address: the account moves to it, verified',
        tags,
        body: EmailChangeConfirmation,
        response: { 204: done('Address changed'), ...errorResponses(400, 401, 403, 409) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const confirmedAt = now()
      // One transaction: a refusal below rolls the token's use back with everything else.
      const previous = await db.transaction().execute(async (trx) => {
        const change = await mailTokens.consumeEmailChange(request.body.token, confirmedAt, trx)
        if (!change || change.userId !== session.userId) throw badRequest(INVALID_LINK)
        const oldEmail = await ownAccount.emailOf(change.userId, trx)
        if (oldEmail === undefined) throw badRequest(INVALID_LINK)
        // Again: someone may have signed up with the address since the link was mailed.
        if (await ownAccount.isTakenByAnother(change.newEmail, change.userId, trx)) throw conflict(TAKEN)
        await ownAccount.moveToVerifiedEmail(change.userId, change.newEmail, confirmedAt, trx)
        // They went to the old address: a reset link there must not open the account any more.
        await mailTokens.cancel(change.userId, ['password-reset', 'email-verification'], trx)
        return { from: oldEmail, to: change.newEmail }
      }).catch((error: unknown) => {
        // A sign-up that took the address between the check and the update: the unique index decides.
        throw isUniqueViolation(error) ? conflict(TAKEN) : error
      })
      await audit(request, { userId: session.userId, type: 'email.changed', detail: previous })
      return reply.code(204).send(null)
    }
  )
}
