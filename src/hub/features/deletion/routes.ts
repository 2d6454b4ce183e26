import { Type } from 'typebox'
import { forbidden, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { refuseLastAdministrator } from '../../kernel/accounts/roles.js'
import { requireCurrentPassword } from '../../kernel/sessions/current-password.js'
import { browserLanguageOf, languageOfAccount } from '../../kernel/language/account-language.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import { PASSWORD_INPUT_MAX_LENGTH } from '../../kernel/accounts/schemas.js'
import type { SessionsRepository } from '../../kernel/sessions/repository.js'
import type { SessionCookies } from '../../kernel/sessions/session-cookies.js'
import type { Sessions } from '../../kernel/sessions/sessions.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import { type AccountErasureOptions, type AccountToErase, eraseAccount } from './erase-account.js'

/** Under an external provider, which holds no password here, deletion needs a sign-in this recent. */
export const RECENT_SIGN_IN_MS = 10 * 60_000

export const PASSWORD_REQUIRED = 'Password is required to delete the account'
export const SIGN_IN_AGAIN = 'Sign in again to delete your account: it takes a sign-in less than 10 minutes old'

const AccountDeletion = Type.Object({
  password: Type.Optional(Type.String({ maxLength: PASSWORD_INPUT_MAX_LENGTH, description: "The account's password (built-in provider)" }))
})

export interface AccountDeletionDependencies extends AccountErasureOptions {
  /**
   * The built-in provider's accounts, which prove the person by a recent sign-in (with the second
   * factor when two-step sign-in is on) and the password; undefined under an external provider.
   */
  builtin: { users: UsersRepository; throttle: SignInThrottle } | undefined
  sessions: Sessions
  sessionsRepository: SessionsRepository
  sessionCookies: SessionCookies
  /** What must happen before anything is erased, or the deletion fails (a Stripe subscription canceled). */
  beforeErasure: (userId: string) => Promise<void>
  now: () => Date
}

/** DELETE /api/account: the person erases their own account (docs/account.md, "Deletion"). */
export async function accountDeletionRoutes(app: App, deps: AccountDeletionDependencies) {
  const { builtin, sessions, sessionsRepository, sessionCookies, now } = deps
  app.delete(
    '/api/account',
    {
      // The proof every other sensitive change takes, before the password is even looked at: a
      // session signed in (with its second factor, when on) or reauthenticated in the last 10
      // minutes. An external provider's accounts have no reauthentication here: see the handler.
      config: builtin ? { session: 'required', recentSignIn: true } : { session: 'required' },
      schema: {
        summary: 'Delete your account: every session ends and the hub erases what it holds about you',
        description:
          'With the built-in provider the session needs a recent sign-in, as every sensitive change does (401 with ' +
          '`WWW-Authenticate: Session error="insufficient_user_authentication"` otherwise: POST /api/auth/reauthenticate), ' +
          'and the password is required (an account without one, made with a passkey, gives none), a wrong one counting toward the sign-in lockout; ' +
          'under an external provider the session must have signed in less than 10 minutes ago. ' +
          'A confirmation is mailed to the address, and the applications are sent an account-purged event. ' +
          'A live Stripe subscription is canceled first; if Stripe cannot be reached, 503 and nothing is erased. ' +
          "The hub's last enabled administrator cannot delete their account (409): make another account an administrator first.",
        tags: ['account'],
        body: AccountDeletion,
        response: { 204: { type: 'null', description: 'Deleted; cookies cleared' }, ...errorResponses(400, 401, 403, 409, 429, 503) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      let account: AccountToErase
      if (builtin) {
        const user = await builtin.users.findById(session.userId)
        if (!user) throw unauthorized('Sign in required')
        await requireCurrentPassword(builtin.throttle, request, reply, user, request.body.password, PASSWORD_REQUIRED)
        account = { userId: user.id, email: user.email, language: languageOfAccount(user.locale, browserLanguageOf(request)) }
      } else {
        const row = await sessionsRepository.findById(session.id)
        if (!row || now().getTime() - Date.parse(row.createdAt) > RECENT_SIGN_IN_MS) throw forbidden(SIGN_IN_AGAIN)
        account = { userId: session.userId, email: session.email, language: browserLanguageOf(request) }
      }
      // The hub's last administrator stays (409; checked again, under a lock, as it is erased).
      await refuseLastAdministrator(deps.db, account.userId)
      // Before anything changes: should it fail (Stripe unreachable, 503), the account is intact.
      await deps.beforeErasure(account.userId)
      // Through the session cache first, so this instance stops trusting them at once.
      await sessions.revokeAllOf(account.userId)
      await eraseAccount(deps, account, now())
      sessionCookies.clear(reply)
      return reply.code(204).send(null)
    }
  )
}
