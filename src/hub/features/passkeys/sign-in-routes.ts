import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { failureForLog } from '../../../shared/database/availability.js'
import { type HttpError, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import { type LoginDependencies, completeLogin, signInRefused } from '../../kernel/sessions/sign-in.js'
import { LoginResponse } from '../../kernel/http/schemas.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import type { PasskeyAssertions } from './assertions.js'
import { authenticationOptions } from './ceremonies.js'
import type { PasskeyChallenges } from './challenges.js'
import type { RelyingParty } from './relying-party.js'
import { AuthenticationResponse, CeremonyOptions, PASSKEY_NOT_ACCEPTED } from './schemas.js'

export interface PasskeySignInRoutesOptions extends LoginDependencies {
  assertions: PasskeyAssertions
  challenges: PasskeyChallenges
  users: UsersRepository
  relyingParty: RelyingParty
  throttle: SignInThrottle
}

const tags = ['auth']

/**
 * Sign-in with a passkey and no password (issue 18). The passkey is something the person has and,
 * with user verification required, something they know or are: two factors, so it never asks for
 * a second step. Success answers exactly as login does, by the same code.
 */
export async function passkeySignInRoutes(app: App, deps: PasskeySignInRoutesOptions) {
  const { assertions, challenges, users, relyingParty, throttle, audit, now } = deps

  app.post(
    '/api/auth/passkey/options',
    {
      schema: {
        summary: 'Begin a passkey sign-in: options for navigator.credentials.get(), valid 5 minutes, once',
        tags,
        response: { 200: CeremonyOptions, ...errorResponses(403) }
      }
    },
    async () => authenticationOptions(relyingParty, await challenges.issueForAuthentication(now()))
  )

  app.post(
    '/api/auth/passkey',
    {
      schema: {
        summary: "Sign in with a passkey: login's answer, and the auth and CSRF cookies",
        tags,
        body: Type.Object({ response: AuthenticationResponse }, { additionalProperties: false }),
        response: { 200: LoginResponse, ...errorResponses(400, 401, 403, 429) }
      }
    },
    async (request, reply) => {
      const { response } = request.body
      const challenge = await assertions.takeChallenge(response)
      if (challenge === null) throw unauthorized('This passkey sign-in expired or was already used; begin again')
      const passkey = await assertions.passkeyOf(response)
      if (!passkey) throw unauthorized(PASSKEY_NOT_ACCEPTED)
      const refusal = await throttle.signInAttempt('passkey', passkey.userId, request.ip)
      if (refusal) throw signInRefused(reply, refusal)
      const refuse = async (reason: string): Promise<HttpError> => {
        await throttle.signInFailed('passkey', passkey.userId)
        auditFailure(request, passkey.userId, reason, passkey.id)
        return unauthorized(PASSKEY_NOT_ACCEPTED)
      }
      const use = await assertions.use(passkey, response, challenge)
      if (use !== 'accepted') throw await refuse(`passkey-${use}`)
      const user = await users.findById(passkey.userId)
      if (!user) throw await refuse('account-disabled')
      const account = { userId: user.id, email: user.email, emailVerified: user.emailVerified === 1 }
      // A disabled account gets no session: starting one checks, in the statement that inserts it, as for login.
      const answer = await completeLogin(deps, request, reply, account, 'passkey')
      if (!answer) throw await refuse('account-disabled')
      await throttle.signInSucceeded('passkey', passkey.userId, request.ip)
      return answer
    }
  )

  /** As login does: not awaited, so a refusal answers as soon whatever the account. */
  function auditFailure(request: FastifyRequest, userId: string, reason: string, passkey: string): void {
    audit(request, { userId, type: 'signin.failed', detail: { method: 'passkey', reason, passkey } }).catch((error: unknown) =>
      request.log.error(failureForLog(error), 'recording a failed sign-in in the audit trail failed')
    )
  }
}
