import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { badRequest } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { tooManyRequests } from '../../kernel/http/http-errors.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import type { AccountMail } from '../../kernel/mail/account-mail.js'
import { browserLanguageOf } from '../../kernel/language/account-language.js'
import { Done, EmailVerification } from './schemas.js'

export interface EmailVerificationDependencies {
  db: Kysely<Database>
  accountMail: AccountMail
  throttle: SignInThrottle
  audit: AuditRequest
  now: () => Date
}

/** One answer for every token that does not work, so none tells what became of a link. */
export const INVALID_VERIFICATION_LINK = 'This link is invalid or has expired; ask for a new one'

/**
 * Verifying the account's address by mailed link (docs/account.md, "Email verification"); built-in
 * provider only. Both paths are under /api/account, so the session stage asks for a session first.
 */
export async function emailVerificationRoutes(app: App, deps: EmailVerificationDependencies) {
  const { db, accountMail, throttle, audit, now } = deps

  app.post(
    '/api/account/email/verify',
    {
      config: { session: 'required' },
      schema: {
        summary: "Mark the account's address verified with the token of a verification link",
        tags: ['account'],
        body: EmailVerification,
        response: { 204: Done, ...errorResponses(400, 401, 403) }
      }
    },
    async (request, reply) => {
      const at = now()
      const userId = await db.transaction().execute(async (trx) => {
        const userId = await accountMail.tokens.consume(request.body.token, 'email-verification', at, trx)
        if (userId === null) return null
        await trx.updateTable('users').set({ emailVerified: 1, updatedAt: at.toISOString() }).where('id', '=', userId).execute()
        // Open sessions say so too, so the SSO tokens they issue from now on carry email_verified.
        await trx.updateTable('sessions').set({ emailVerified: 1 }).where('userId', '=', userId).execute()
        return userId
      })
      if (userId === null) throw badRequest(INVALID_VERIFICATION_LINK)
      await audit(request, { userId, type: 'email.verified' })
      return reply.code(204).send(null)
    }
  )

  app.post(
    '/api/account/email/verification',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Mail the signed-in account a new verification link (none when the address is verified already)',
        tags: ['account'],
        response: { 204: Done, ...errorResponses(401, 403, 429) }
      }
    },
    async (request, reply) => {
      const { userId } = sessionOf(request)
      const wait = await throttle.verificationMailBlockedFor(userId)
      if (wait !== null) throw tooManyRequests(reply, wait, 'Too many verification mails asked for; try again later')
      const user = await db.selectFrom('users').select(['email', 'emailVerified', 'locale']).where('id', '=', userId).executeTakeFirst()
      if (user && user.emailVerified === 0) await accountMail.sendVerification({ userId, email: user.email, locale: user.locale, requestLanguage: browserLanguageOf(request) }, now())
      return reply.code(204).send(null)
    }
  )
}
