import { badRequest, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import { type LoginDependencies, completeLogin, signInRefused } from '../../kernel/sessions/sign-in.js'
import { LoginResponse } from '../../kernel/http/schemas.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import type { LoginChallenges } from './login-challenges.js'
import { SecondFactorBody } from './schemas.js'
import { type TwoStep, WRONG_CODE, typedCode } from './two-step.js'
import { browserLanguageOf } from '../../kernel/language/account-language.js'

export interface SecondFactorRouteDependencies extends LoginDependencies {
  twoStep: TwoStep
  challenges: LoginChallenges
  users: UsersRepository
  throttle: SignInThrottle
}

/** One answer for a challenge that is unknown, expired, spent, or whose password step no longer holds. */
export const CHALLENGE_INVALID = 'This sign-in has expired or was refused; sign in with your password again'
export const WRONG_RECOVERY_CODE = 'The recovery code is incorrect or already used'
export const ONE_OF_CODE_OR_RECOVERY_CODE = 'Give either code or recoveryCode'

/**
 * POST /api/auth/login/second-factor: the second step of a login with two-step sign-in on. Each
 * try is counted on the challenge (five at most) and as a login of the account, before it is
 * checked, so wrong codes lead to the same lockout as wrong passwords.
 */
export async function secondFactorRoute(app: App, deps: SecondFactorRouteDependencies) {
  const { twoStep, challenges, users, throttle, audit, now } = deps
  app.post(
    '/api/auth/login/second-factor',
    {
      // The second step of a login holds no session either; its challenge is what it proves.
      config: { csrf: false },
      schema: {
        summary: "Finish a login with a code from the authenticator app or a recovery code: login's answer and cookies",
        tags: ['auth'],
        body: SecondFactorBody,
        response: { 200: LoginResponse, ...errorResponses(400, 401, 403, 429) }
      }
    },
    async (request, reply) => {
      const { challenge, code, recoveryCode } = request.body
      if ((code === undefined) === (recoveryCode === undefined)) throw badRequest(ONE_OF_CODE_OR_RECOVERY_CODE)
      const digits = code === undefined ? undefined : typedCode(code)
      const at = now()
      const userId = await challenges.accountOf(challenge, at)
      const user = userId === undefined ? undefined : await users.findById(userId)
      if (!user) throw unauthorized(CHALLENGE_INVALID)

      const refusal = await throttle.signInAttempt('login', user.email, request.ip)
      if (refusal) throw signInRefused(reply, refusal)
      const fail = async (message: string) => {
        await throttle.signInFailed('login', user.email)
        return unauthorized(message)
      }
      const attempt = await challenges.attempt(challenge, user.passwordHash, at)
      if (!attempt) throw await fail(CHALLENGE_INVALID)

      const method = digits === undefined ? 'recovery-code' : 'totp'
      const codesLeft = digits === undefined ? await twoStep.useRecoveryCode(user, recoveryCode ?? '', at, browserLanguageOf(request)) : null
      const accepted = digits === undefined ? codesLeft !== null : await twoStep.acceptCode(user.id, digits, at)
      if (!accepted) {
        await audit(request, { userId: user.id, type: 'signin.second-factor.failed', detail: { method, attemptsLeft: attempt.attemptsLeft } })
        throw await fail(digits === undefined ? WRONG_RECOVERY_CODE : WRONG_CODE)
      }
      if (codesLeft !== null) await audit(request, { userId: user.id, type: 'recovery-code.used', detail: { remaining: codesLeft } })
      // Spent by this login; a parallel one with another right code finds it gone.
      if (!(await challenges.consume(challenge))) throw await fail(CHALLENGE_INVALID)
      const account = { userId: user.id, email: user.email, emailVerified: user.emailVerified === 1 }
      const answer = await completeLogin(deps, request, reply, account, `password+${method}`)
      // Disabled since the password step (issue 15): no session was created.
      if (!answer) {
        await audit(request, { userId: user.id, type: 'signin.failed', detail: { reason: 'account-disabled' } })
        throw await fail(CHALLENGE_INVALID)
      }
      await throttle.signInSucceeded('login', user.email, request.ip)
      return answer
    }
  )
}
