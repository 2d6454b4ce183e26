import { Type } from 'typebox'
import { badRequest, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { passwordChangedInSessionMail } from './mails.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { PASSWORD_INPUT_MAX_LENGTH } from '../../kernel/accounts/schemas.js'
import { passwordProblem } from '../../kernel/accounts/credentials.js'
import { hashPassword } from '../../kernel/accounts/password-hashing.js'
import { requireCurrentPassword } from '../../kernel/sessions/current-password.js'
import type { OwnAccountDependencies } from './dependencies.js'
import { browserLanguageOf, languageOfAccount } from '../../kernel/language/account-language.js'

const PasswordChange = Type.Object({
  currentPassword: Type.Optional(Type.String({ maxLength: PASSWORD_INPUT_MAX_LENGTH, description: 'Required when the account has a password; an account made with a passkey sets its first one without' })),
  newPassword: Type.String({ maxLength: PASSWORD_INPUT_MAX_LENGTH, description: 'The rules of sign-up' })
})

/** PUT /api/account/password: the built-in provider's password, changed by its signed-in owner. */
export async function passwordChangeRoutes(app: App, deps: OwnAccountDependencies) {
  const { db, ownAccount, users, sessions, throttle, mailQueue, mailTokens, audit, publicUrl, now } = deps
  app.put(
    '/api/account/password',
    {
      config: { session: 'required', recentSignIn: true },
      schema: {
        summary: 'Change your password, or set a first one on an account made with a passkey: every other session ends, this one stays',
        tags: ['account'],
        body: PasswordChange,
        response: { 204: { type: 'null', description: 'Changed' }, ...errorResponses(400, 401, 403, 429) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const { currentPassword, newPassword } = request.body
      // Before the current password is tried: a refused new one costs the person no attempt.
      const problem = passwordProblem(newPassword)
      if (problem) throw badRequest(problem)
      const user = await users.findById(session.userId)
      if (!user) throw unauthorized('Sign in required')
      await requireCurrentPassword(throttle, request, reply, user, currentPassword)

      const passwordHash = await hashPassword(newPassword)
      const changedAt = now()
      const notice = passwordChangedInSessionMail({ publicUrl, language: languageOfAccount(user.locale, browserLanguageOf(request)), email: user.email })
      await db.transaction().execute(async (trx) => {
        await ownAccount.setPasswordHash(user.id, passwordHash, changedAt, trx)
        // A reset link asked for before the change would undo it, perhaps for whoever asked; an
        // address change asked for before it may be how whoever knew the old password keeps the account.
        await mailTokens.cancel(user.id, ['password-reset', 'email-change'], trx)
        await mailQueue.enqueue({ to: user.email, userId: user.id, ...notice }, changedAt, trx)
      })
      // Whoever else holds a session may be who learnt the old password.
      const sessionsEnded = await sessions.revokeAllOfExcept(user.id, session.id)
      await audit(request, { userId: user.id, type: 'password.changed', detail: { sessionsEnded } })
      return reply.code(204).send(null)
    }
  )
}
