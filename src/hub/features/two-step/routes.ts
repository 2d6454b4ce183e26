import type { FastifyRequest } from 'fastify'
import type { UserRow } from '../../../shared/database/schema.js'
import { unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import { CodeBody, RecoveryCodesResponse, TotpSetupResponse } from './schemas.js'
import type { TwoStep } from './two-step.js'
import { browserLanguageOf } from '../../kernel/language/account-language.js'

export interface TwoStepRouteDependencies {
  twoStep: TwoStep
  users: UsersRepository
  audit: AuditRequest
  now: () => Date
}

const tags = ['account']

/**
 * Two-step sign-in for a signed-in person (issue 18): set up an authenticator app, confirm it with
 * a code (then it is on), turn it off, regenerate recovery codes. Each needs a recent sign-in.
 */
export async function twoStepRoutes(app: App, { twoStep, users, audit, now }: TwoStepRouteDependencies) {
  const accountOf = async (request: FastifyRequest): Promise<UserRow> => {
    const user = await users.findById(sessionOf(request).userId)
    if (!user) throw unauthorized('Sign in required')
    return user
  }

  app.post(
    '/api/account/totp',
    {
      config: { session: 'required', verifiedAddress: true, recentSignIn: true },
      schema: {
        summary: 'Start setting up an authenticator app: a new secret, pending until a code of it is confirmed; the address must be verified (403)',
        tags,
        response: { 200: TotpSetupResponse, ...errorResponses(401, 403, 409) }
      }
    },
    async (request) => twoStep.begin(await accountOf(request), now())
  )

  app.post(
    '/api/account/totp/confirm',
    {
      config: { session: 'required', verifiedAddress: true, recentSignIn: true },
      schema: {
        summary: 'Confirm the pending set-up with a code from the app: two-step sign-in is on, and here are its recovery codes',
        tags,
        body: CodeBody,
        response: { 200: RecoveryCodesResponse, ...errorResponses(400, 401, 403, 409) }
      }
    },
    async (request) => {
      const user = await accountOf(request)
      const recoveryCodes = await twoStep.confirm(user, request.body.code, now(), browserLanguageOf(request))
      await audit(request, { userId: user.id, type: 'totp.enabled' })
      return { recoveryCodes }
    }
  )

  app.delete(
    '/api/account/totp',
    {
      config: { session: 'required', verifiedAddress: true, recentSignIn: true },
      schema: {
        summary: 'Turn two-step sign-in off (or drop a pending set-up): its recovery codes go with it',
        tags,
        response: { 204: { type: 'null', description: 'Off' }, ...errorResponses(401, 403, 404) }
      }
    },
    async (request, reply) => {
      const user = await accountOf(request)
      if (await twoStep.disable(user, now(), browserLanguageOf(request))) await audit(request, { userId: user.id, type: 'totp.disabled' })
      return reply.code(204).send(null)
    }
  )

  app.post(
    '/api/account/recovery-codes',
    {
      config: { session: 'required', recentSignIn: true },
      schema: {
        summary: 'New recovery codes: the old ones stop working',
        tags,
        response: { 200: RecoveryCodesResponse, ...errorResponses(401, 403, 409) }
      }
    },
    async (request) => {
      const user = await accountOf(request)
      const recoveryCodes = await twoStep.regenerateRecoveryCodes(user, now())
      await audit(request, { userId: user.id, type: 'recovery-codes.regenerated' })
      return { recoveryCodes }
    }
  )
}
