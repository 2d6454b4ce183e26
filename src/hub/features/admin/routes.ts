import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { type Static, Type } from 'typebox'
import { Value } from 'typebox/value'
import type { Database } from '../../../shared/database/schema.js'
import { HttpError, badRequest } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import type { App } from '../../../shared/http/server.js'
import { PASSWORD_INPUT_MAX_LENGTH, SignupRequest } from '../../kernel/accounts/schemas.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { AUDIT_EVENT_TYPES, type AuditEventType } from '../../kernel/audit/events.js'
import { acceptFormBodies } from '../../kernel/http/form-bodies.js'
import { AUTH_COOKIE } from '../../kernel/http/cookies.js'
import { chosenLanguageOf } from '../../kernel/language/account-language.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import type { Reauthentication } from '../../kernel/sessions/reauthenticate.js'
import type { Sessions } from '../../kernel/sessions/sessions.js'
import { signInRefused } from '../../kernel/sessions/sign-in.js'
import { ADMIN_ACTIVITY_PAGE_SIZE, type AdminActivity } from './activity.js'
import { CONFIRM_PATH, type ConfirmRefusal, confirmPathFor, consolePathOr } from './confirm.js'
import { type Overview, overviewOf } from './overview.js'
import type { Setup } from './setup.js'

export interface AdminRouteDependencies {
  /** Whether the hub keeps its own accounts: else the set-up link only promotes a signed-in account. */
  createsAccounts: boolean
  db: Kysely<Database>
  activity: AdminActivity
  setup: Setup
  sessions: Pick<Sessions, 'validate'>
  throttle: SignInThrottle
  audit: AuditRequest
  /** The kernel's reauthentication, whose rules the console's confirm form follows; absent under an external provider. */
  now: () => Date
}

const Count = Type.Integer({ minimum: 0 })
const OverviewResponse = Type.Object({
  accounts: Count,
  admins: Type.Integer({ minimum: 0, description: 'Administrators, enabled or not' }),
  disabled: Count,
  pendingInvitations: Type.Integer({ minimum: 0, description: 'Neither used, withdrawn nor expired' }),
  queuedMail: Type.Integer({ minimum: 0, description: 'Mail not sent yet, waiting or given up on' }),
  pendingSecurityEvents: Type.Integer({ minimum: 0, description: 'Security events an application has not accepted yet' })
})

const AuditType = Type.Unsafe<AuditEventType>({ type: 'string', enum: [...AUDIT_EVENT_TYPES], description: 'An audit event type (docs/activity.md)' })
const AdminActivityQuery = Type.Object({
  userId: Type.Optional(Type.String({ format: 'uuid', description: "One account's events only" })),
  type: Type.Optional(AuditType),
  limit: Type.Integer({ minimum: ADMIN_ACTIVITY_PAGE_SIZE.min, maximum: ADMIN_ACTIVITY_PAGE_SIZE.max, default: ADMIN_ACTIVITY_PAGE_SIZE.default }),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'nextCursor of the previous page' }))
})
const NullableString = Type.Union([Type.String(), Type.Null()])
const AdminActivityResponse = Type.Object({
  events: Type.Array(
    Type.Object({
      userId: Type.String(),
      email: Type.Union([Type.String(), Type.Null()], { description: 'null once the account is deleted' }),
      type: Type.String({ description: 'An audit event type (docs/activity.md)' }),
      at: Type.String({ format: 'date-time' }),
      ip: NullableString,
      userAgent: NullableString,
      detail: Type.Record(Type.String(), Type.Unknown(), { description: 'The fields this type shows its owner; never a secret' })
    }),
    { description: 'Newest first' }
  ),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null when hasMore is false' })
})

const SetupRequest = Type.Object({
  token: Type.String({ maxLength: 128, description: 'The token in the fragment of the set-up link the hub printed at start', [PLAIN_TEXT]: true }),
  email: Type.Optional(SignupRequest.properties.email),
  password: Type.Optional(SignupRequest.properties.password),
  locale: SignupRequest.properties.locale
})
const SetupResponse = Type.Object({ userId: Type.String(), created: Type.Boolean({ description: 'true when a new account was made' }) })

const SETUP_NEEDS_CREDENTIALS = 'Give email and password for the administrator’s account, or sign in to make your own account the administrator'
const SETUP_NEEDS_SIGN_IN = 'Sign in first: on a hub whose accounts another provider keeps, the set-up link makes the signed-in account the administrator'
const SETUP_SIGNED_IN = 'Signed in: the set-up link makes this account the administrator; sign out first to create another'

/** The console's own API: its front page's counts and every account's activity (docs/administration.md). */
export async function adminApiRoutes(app: App, { db, activity, now }: Pick<AdminRouteDependencies, 'db' | 'activity' | 'now'>) {
  app.get(
    '/api/admin/overview',
    {
      config: { session: 'required', role: 'admin' },
      schema: {
        summary: "The console's front page: how many accounts, administrators, disabled accounts, pending invitations, queued mails and undelivered security events",
        tags: ['admin'],
        response: { 200: OverviewResponse, ...errorResponses(401, 403) }
      }
    },
    async (): Promise<Overview> => overviewOf(db, now())
  )

  app.get(
    '/api/admin/activity',
    {
      config: { session: 'required', role: 'admin' },
      schema: {
        summary: "Every account's activity, newest first; filtered by account and event type",
        tags: ['admin'],
        querystring: AdminActivityQuery,
        response: { 200: AdminActivityResponse, ...errorResponses(400, 401, 403) }
      }
    },
    async (request) => activity.page(request.query)
  )
}

/** POST /api/setup: the set-up link's token makes the first administrator (docs/administration.md). */
export async function setupRoute(app: App, { setup, sessions, throttle, audit, now, createsAccounts }: Omit<AdminRouteDependencies, 'db' | 'activity'>) {
  app.post(
    '/api/setup',
    {
      schema: {
        summary: "Use the set-up link: create the hub's first administrator (email and password), or, signed in, make your account it",
        description: 'The token is the one the hub printed at its last start while it had no administrator; used once, and void once any administrator exists. Counted per IP like logins.',
        tags: ['admin'],
        body: SetupRequest,
        response: { 200: SetupResponse, 201: SetupResponse, ...errorResponses(400, 403, 409, 429) }
      }
    },
    async (request, reply) => {
      const { token, email, password, locale } = request.body
      const session = await sessions.validate(request.cookies[AUTH_COOKIE], now())
      if (session && (email !== undefined || password !== undefined)) throw badRequest(SETUP_SIGNED_IN)
      if (!session && !createsAccounts) throw badRequest(SETUP_NEEDS_SIGN_IN)
      if (!session && (email === undefined || password === undefined)) throw badRequest(SETUP_NEEDS_CREDENTIALS)
      // Guessing a 256-bit token is hopeless; the cap is cheap all the same. Keyed by IP twice, so
      // one address's guesses lock out only itself.
      const refused = await throttle.signInAttempt('setup', request.ip, request.ip)
      if (refused) throw signInRefused(reply, refused)
      let used: { userId: string; created: boolean }
      try {
        used = await setup.use(token, session ? { userId: session.userId } : { email: email ?? '', password: password ?? '', locale: chosenLanguageOf(request, locale) })
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 403) await throttle.signInFailed('setup', request.ip)
        else await throttle.signInSucceeded('setup', request.ip, request.ip)
        throw error
      }
      await throttle.signInSucceeded('setup', request.ip, request.ip)
      await audit(request, { userId: used.userId, type: 'admin.setup', detail: { created: used.created } })
      return reply.code(used.created ? 201 : 200).send(used)
    }
  )
}

const ConfirmForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 512 })),
  next: Type.Optional(Type.String({ maxLength: 2048 })),
  password: Type.Optional(Type.String({ maxLength: PASSWORD_INPUT_MAX_LENGTH })),
  code: Type.Optional(Type.String({ maxLength: 64 }))
})

/**
 * POST /admin/confirm: the console's "confirm it is you" without script. The same rules as
 * POST /api/auth/reauthenticate (they are its function): counted as a login, the password refused
 * alone while two-step sign-in is on, audited; a proof that holds sends the person on to `next`
 * (a console path), a refused one back to the form with the reason in the page's language.
 */
export async function confirmFormRoute(app: App, { reauthentication }: { reauthentication: Reauthentication }) {
  await app.register(async (scope) => {
    acceptFormBodies(scope)
    scope.post(
      CONFIRM_PATH,
      { config: { session: 'required', role: 'admin', csrf: 'form' }, schema: { hide: true, body: ConfirmForm } },
      async (request: FastifyRequest, reply: FastifyReply) => {
        const { next, password, code } = request.body as Static<typeof ConfirmForm>
        const target = consolePathOr(next)
        const given = Object.fromEntries(
          Object.entries({ password, code }).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
        )
        const proof = reauthentication.proofs.find((candidate) => Object.hasOwn(given, candidate.field))
        let refusal: ConfirmRefusal | undefined
        if (!proof || Object.keys(given).length !== 1 || !Value.Check(proof.schema, given[proof.field])) {
          refusal = code !== undefined ? 'wrong-code' : 'wrong-password'
        } else {
          try {
            await reauthentication.confirm(request, reply, given)
          } catch (error) {
            if (!(error instanceof HttpError) || error.statusCode >= 500) throw error
            refusal = error.statusCode === 429 ? 'too-many' : error.statusCode === 403 ? 'code-required' : proof.field === 'code' ? 'wrong-code' : 'wrong-password'
          }
        }
        if (refusal !== undefined) return reply.code(303).header('location', confirmPathFor(target, refusal)).send()
        return reply.code(303).header('location', target).send()
      }
    )
  })
}
