import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { SignupMode } from '../../../shared/config.js'
import type { Database } from '../../../shared/database/schema.js'
import { SIGNUP_CLOSED, acceptInvitation } from '../../kernel/accounts/invitations.js'
import { failureForLog } from '../../../shared/database/availability.js'
import { type HttpError, forbidden, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AccountMail } from '../../kernel/mail/account-mail.js'
import { browserLanguageOf, chosenLanguageOf } from '../../kernel/language/account-language.js'
import { tooManyRequests } from '../../kernel/http/http-errors.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import { Credentials, SignupRequest } from '../../kernel/accounts/schemas.js'
import { LoginResponse, SignupResponse } from '../../kernel/http/schemas.js'
import type { Accounts } from '../../kernel/accounts/accounts.js'
import { normaliseEmail } from '../../kernel/accounts/credentials.js'
import { NO_SECOND_FACTOR, type SecondFactorGate, SecondFactorRequired } from '../../kernel/sessions/second-factor.js'
import { type LoginDependencies, completeLogin, signInRefused } from '../../kernel/sessions/sign-in.js'

/** HUB_SIGNUP=invite, and no invitation given. */
export const INVITATION_NEEDED = "This hub takes new accounts by invitation only; ask its administrator for one"

export interface AccountRouteDependencies extends LoginDependencies {
  accounts: Accounts
  throttle: SignInThrottle
  accountMail: AccountMail
  /** HUB_SIGNUP: anyone, an invitation's holder, or nobody may make an account here. */
  signup: SignupMode
  db: Kysely<Database>
  /** When the account asks a second factor (two-step sign-in), a right password answers its challenge instead of a session. */
  secondFactor?: SecondFactorGate
}

/**
 * With an external provider the hub serves no sign-up or login (nor login's second step, below
 * it): their paths answer 404, to callers who hold no CSRF token as to the others.
 */
export function signInNotServed(app: App): void {
  for (const prefix of ['/api/auth/login', '/api/auth/signup']) app.unknownPaths(prefix, { csrf: false })
}

/** The built-in identity provider's sign-up and login (not served when an external provider is configured). */
export async function accountRoutes(app: App, deps: AccountRouteDependencies) {
  const { accounts, throttle, audit, now } = deps
  const secondFactor = deps.secondFactor ?? NO_SECOND_FACTOR

  app.post(
    '/api/auth/signup',
    {
      // Where a session starts: the caller holds no token bound to one yet.
      config: { csrf: false },
      schema: {
        summary: 'Create an account (HUB_SIGNUP=open; with an invitation, HUB_SIGNUP=invite)',
        description:
          'With HUB_SIGNUP=invite an invitation is needed (403 without one that can be used); with HUB_SIGNUP=closed nobody signs up, invitation or not. An invitation makes the account of its own address, counted as proven, in its groups.',
        tags: ['auth'],
        body: SignupRequest,
        response: { 200: SignupResponse, ...errorResponses(400, 403, 409, 429) }
      }
    },
    async (request, reply) => {
      if (deps.signup === 'closed') throw forbidden(SIGNUP_CLOSED)
      const { locale, invitation, ...credentials } = request.body
      if (invitation === undefined && deps.signup === 'invite') throw forbidden(INVITATION_NEEDED)
      const wait = await throttle.signupBlockedFor(request.ip)
      if (wait !== null) throw tooManyRequests(reply, wait, 'Too many sign-ups from this address; try again later')
      if (invitation !== undefined) {
        // The address is the invitation's, proven by the link: no verification mail.
        const accepted = await acceptInvitation(deps.db, accounts, { ...credentials, token: invitation, locale: chosenLanguageOf(request, locale) }, now())
        await audit(request, { userId: accepted.userId, type: 'signup' })
        await audit(request, { userId: accepted.userId, type: 'invitation.used', detail: { invitationId: accepted.invitationId, by: accepted.invitedBy } })
        return { userId: accepted.userId }
      }
      // Stored only when the person chose it; otherwise pages and mail follow the browser.
      const account = await accounts.create(credentials, now(), chosenLanguageOf(request, locale))
      const { userId } = account
      await audit(request, { userId, type: 'signup' })
      await deps.accountMail.sendVerification({ ...account, requestLanguage: browserLanguageOf(request) }, now())
      return { userId }
    }
  )

  app.post(
    '/api/auth/login',
    {
      config: { csrf: false },
      schema: {
        summary: 'Sign in with email and password: returns an ID token and sets the auth and CSRF cookies',
        tags: ['auth'],
        body: Credentials,
        response: { 200: Type.Union([LoginResponse, SecondFactorRequired]), ...errorResponses(400, 401, 403, 429) }
      }
    },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email)
      const refusal = await throttle.signInAttempt('login', email, request.ip)
      if (refusal) throw signInRefused(reply, refusal)
      // Every failure answers alike; the audit trail keeps which account was tried and why.
      const refuse = async (failure?: { userId: string; reason: string }): Promise<HttpError> => {
        await throttle.signInFailed('login', email)
        if (failure) {
          // Not awaited: the write would make a failure on an existing account answer later than
          // one on an unknown email, telling the caller which emails have accounts.
          audit(request, { userId: failure.userId, type: 'signin.failed', detail: { reason: failure.reason } }).catch((error: unknown) =>
            request.log.error(failureForLog(error), 'recording a failed sign-in in the audit trail failed')
          )
        }
        return unauthorized('Email or password is incorrect')
      }
      const result = await accounts.authenticate(request.body)
      if (result.outcome === 'unknown-email') throw await refuse()
      if (result.outcome !== 'signed-in') throw await refuse({ userId: result.userId, reason: result.outcome })
      const { account } = result
      const challenge = await secondFactor.challengeFor(account.userId, now())
      if (challenge !== null) {
        await throttle.passwordStepPassed('login', email, request.ip)
        return { mfaRequired: true as const, challenge }
      }
      const answer = await completeLogin(deps, request, reply, account, 'password')
      // Disabled since `authenticate` read it: no session was created.
      if (!answer) throw await refuse({ userId: account.userId, reason: 'account-disabled' })
      await throttle.signInSucceeded('login', email, request.ip)
      return answer
    }
  )
}
