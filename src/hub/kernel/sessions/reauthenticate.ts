import type { FastifyReply, FastifyRequest } from 'fastify'
import { type Static, type TSchema, Type } from 'typebox'
import type { UserRow } from '../../../shared/database/schema.js'
import { badRequest, forbidden, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { UsersRepository } from '../accounts/repository.js'
import { verifyPassword } from '../accounts/password-hashing.js'
import type { AuditRequest } from '../audit/context.js'
import { PASSWORD_INPUT_MAX_LENGTH } from '../accounts/schemas.js'
import { sessionOf } from './request-session.js'
import type { SignInThrottle } from '../rate-limit/sign-in-throttle.js'
import { WRONG_CURRENT_PASSWORD, requireCountedProof } from './current-password.js'
import type { RecentSignIn } from './recent-sign-in.js'
import { NO_SECOND_FACTOR, type SecondFactorGate } from './second-factor.js'
import { sessionHandle } from './session-handle.js'

/** What a proof's check is given: the session's account, and the counting every proof goes through. */
export interface ProofAttempt {
  request: FastifyRequest
  user: UserRow
  /**
   * Counts the proof as a login of the account (the same counters, keyed by its address): 429
   * while locked, 401 with `refusal` when `proves` answers false.
   */
  counted(proves: () => Promise<boolean>, refusal: string): Promise<void>
}

/**
 * One way to confirm who holds a session: a field of POST /api/auth/reauthenticate's body. The
 * password is the kernel's; features add theirs (two-step sign-in a code, passkeys an assertion).
 */
export interface ReauthenticationProof<Schema extends TSchema = TSchema> {
  /** The body's field carrying it. */
  field: string
  schema: Schema
  /** The audit event's `method`. */
  method: string
  /** How the route's summary names it: "a passkey". */
  named: string
  /** A sentence for the route's OpenAPI description, if it has a rule to tell. */
  described?: string
  /** Resolves when `given` proves who holds the session; else throws its refusal (400, 401, 403, 429). */
  check(given: Static<Schema>, attempt: ProofAttempt): Promise<void>
}

export interface ReauthenticateDependencies {
  users: UsersRepository
  /** What the features add to the password, in the order the summary and the 400 name them. */
  proofs?: readonly ReauthenticationProof[]
  /** While it is on for the account, the password alone is refused (403). */
  secondFactor?: SecondFactorGate
  throttle: SignInThrottle
  recentSignIn: RecentSignIn
  audit: AuditRequest
  now: () => Date
}

/** "a, b or c". */
function oneOf(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
}

/** The 400 of a body with no proof or more than one: "Give one of password, code or passkey". */
export function oneOfProofsRefusal(fields: readonly string[]): string {
  return `Give ${fields.length > 1 ? 'one of ' : ''}${oneOf(fields)}`
}

/** Reauthentication's 403 for a password on an account that has none (made with a passkey). */
export const NO_PASSWORD_TO_CONFIRM = 'This account has no password: confirm with a passkey'

/**
 * The kernel's proof: the account's password, counted as a login. With a second factor on, the
 * password alone is no proof (403, neither checked nor counted): the session's holder may know it
 * without holding the second factor. An account without a password is refused the same way: the
 * session's holder knows it has none, so the refusal tells them nothing new, and says what does work.
 */
function passwordProof(secondFactor: SecondFactorGate): ReauthenticationProof {
  return {
    field: 'password',
    schema: Type.String({ maxLength: PASSWORD_INPUT_MAX_LENGTH }),
    method: 'password',
    named: 'your password',
    described: secondFactor.passwordRefused.described || undefined,
    async check(password: string, { user, counted }) {
      // Refused before the password is looked at, so the refusal says nothing about it and counts nothing.
      const { passwordHash } = user
      if (passwordHash === null) throw forbidden(NO_PASSWORD_TO_CONFIRM)
      if (await secondFactor.isOn(user.id)) throw forbidden(secondFactor.passwordRefused.error)
      await counted(() => verifyPassword(passwordHash, password), WRONG_CURRENT_PASSWORD)
    }
  }
}

/**
 * Reauthentication's rules, whichever door a proof comes through (the API's JSON, the console's
 * form without script): exactly one proof of those registered, the password refused alone while a
 * second factor is on, every proof counted as a login of the account, and a proof that holds
 * recorded on the session and in the audit trail.
 */
export function createReauthentication(deps: ReauthenticateDependencies) {
  const { users, throttle, recentSignIn, audit, now } = deps
  const proofs = [passwordProof(deps.secondFactor ?? NO_SECOND_FACTOR), ...(deps.proofs ?? [])]
  const fields = proofs.map((proof) => proof.field)
  const duplicate = fields.find((field, index) => fields.indexOf(field) !== index)
  if (duplicate !== undefined) throw new Error(`Two reauthentication proofs share the field "${duplicate}"`)
  const oneOfProofs = oneOfProofsRefusal(fields)
  return {
    proofs,
    /**
     * Resolves once `given` (one field per proof, at most one set) proves who holds the request's
     * session, recorded; else throws the refusal (400, 401, 403, 429). The caller has validated
     * each field against its proof's schema.
     */
    async confirm(request: FastifyRequest, reply: FastifyReply, given: Readonly<Record<string, unknown>>): Promise<void> {
      const session = sessionOf(request)
      const offered = proofs.filter((proof) => given[proof.field] !== undefined)
      const [proof] = offered
      if (offered.length !== 1 || !proof) throw badRequest(oneOfProofs)
      const user = await users.findById(session.userId)
      if (!user) throw unauthorized('Sign in required')
      await proof.check(given[proof.field], {
        request,
        user,
        counted: (proves, refusal) => requireCountedProof(throttle, request, reply, user.email, proves, refusal)
      })
      await recentSignIn.record(session.id, now())
      await audit(request, { userId: user.id, type: 'session.reauthenticated', detail: { method: proof.method, session: sessionHandle(session.id) } })
    }
  }
}

export type Reauthentication = ReturnType<typeof createReauthentication>

/**
 * POST /api/auth/reauthenticate: a fresh proof of who holds this session, for the changes that need
 * a recent sign-in. Exactly one proof of those registered; a wrong one counts as a failed login of
 * the account.
 */
export async function reauthenticateRoute(app: App, deps: ReauthenticateDependencies) {
  const reauthentication = createReauthentication(deps)
  const { proofs } = reauthentication
  const description = proofs.flatMap((proof) => proof.described ?? []).join(' ')

  app.post(
    '/api/auth/reauthenticate',
    {
      config: { session: 'required' },
      schema: {
        summary: `Confirm ${oneOf(proofs.map((proof) => proof.named))}: sensitive changes are allowed for 10 minutes`,
        ...(description ? { description } : {}),
        tags: ['auth'],
        body: Type.Object(Object.fromEntries(proofs.map((proof) => [proof.field, Type.Optional(proof.schema)]))),
        response: { 204: { type: 'null', description: 'Recorded on this session' }, ...errorResponses(400, 401, 403, 429) }
      }
    },
    async (request, reply) => {
      await reauthentication.confirm(request, reply, request.body as Record<string, unknown>)
      return reply.code(204).send(null)
    }
  )
}
