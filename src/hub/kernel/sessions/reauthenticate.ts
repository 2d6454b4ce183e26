import { badRequest, forbidden, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { requireCountedProof, requireCurrentPassword } from '../../features/account/current-password.js'
import type { AuditRequest } from '../audit/context.js'
import type { PasskeyAssertions } from '../../features/passkeys/assertions.js'
import { PASSKEY_NOT_ACCEPTED } from '../../features/passkeys/schemas.js'
import { sessionOf } from '../pipeline/session.js'
import type { SignInThrottle } from '../rate-limit/sign-in-throttle.js'
import type { RecentSignIn } from './recent-sign-in.js'
import { sessionHandle } from './session-handle.js'
import { ReauthenticationBody } from '../../features/two-step/schemas.js'
import { NOT_ON, type TwoStep, WRONG_CODE, typedCode } from '../../features/two-step/two-step.js'
import type { UsersRepository } from '../accounts/repository.js'

export interface ReauthenticateDependencies {
  users: UsersRepository
  twoStep: TwoStep
  passkeys: PasskeyAssertions
  throttle: SignInThrottle
  recentSignIn: RecentSignIn
  audit: AuditRequest
  now: () => Date
}

export const ONE_OF_PASSWORD_OR_CODE = 'Give one of password, code or passkey'
export const SECOND_FACTOR_REQUIRED = 'Two-step sign-in is on: confirm with a code from your authenticator app or a passkey'

/**
 * POST /api/auth/reauthenticate: a fresh proof of who holds this session, for the changes that need
 * a recent sign-in. A wrong password or code counts as a failed login of the account. With two-step
 * sign-in on, the password alone is no proof (403, neither checked nor counted): the session's
 * holder may know it without holding the second factor.
 */
export async function reauthenticateRoute(app: App, { users, twoStep, passkeys, throttle, recentSignIn, audit, now }: ReauthenticateDependencies) {
  app.post(
    '/api/auth/reauthenticate',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Confirm your password, a code from your authenticator app or a passkey: sensitive changes are allowed for 10 minutes',
        description:
          'With two-step sign-in on, the password is refused (403): the proof must be a code of the app or a passkey. ' +
          'A recovery code is never accepted here.',
        tags: ['auth'],
        body: ReauthenticationBody,
        response: { 204: { type: 'null', description: 'Recorded on this session' }, ...errorResponses(400, 401, 403, 429) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const { password, code, passkey } = request.body
      if ([password, code, passkey].filter((proof) => proof !== undefined).length !== 1) throw badRequest(ONE_OF_PASSWORD_OR_CODE)
      const user = await users.findById(session.userId)
      if (!user) throw unauthorized('Sign in required')
      if (password !== undefined) {
        // Refused before the password is looked at, so the refusal says nothing about it and counts nothing.
        if (await twoStep.isOn(user.id)) throw forbidden(SECOND_FACTOR_REQUIRED)
        await requireCurrentPassword(throttle, request, reply, user, password)
      } else if (passkey !== undefined) {
        // An assertion over a challenge from POST /api/auth/passkey/options, by one of this account's passkeys.
        await requireCountedProof(throttle, request, reply, user.email, () => passkeys.proves(user.id, passkey), PASSKEY_NOT_ACCEPTED)
      } else {
        const digits = typedCode(code ?? '')
        if (!(await twoStep.isOn(user.id))) throw badRequest(NOT_ON)
        await requireCountedProof(throttle, request, reply, user.email, () => twoStep.acceptCode(user.id, digits, now()), WRONG_CODE)
      }
      await recentSignIn.record(session.id, now())
      const method = password !== undefined ? 'password' : passkey !== undefined ? 'passkey' : 'totp'
      await audit(request, { userId: user.id, type: 'session.reauthenticated', detail: { method, session: sessionHandle(session.id) } })
      return reply.code(204).send(null)
    }
  )
}
