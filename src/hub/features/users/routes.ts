import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { SessionCookies } from '../../kernel/sessions/session-cookies.js'
import { AccountChangesSchema, ListedUserSchema, UserParams, UsersPageSchema, UsersQuerySchema } from './schemas.js'
import type { UserAdministration } from './service.js'

export const ADMIN_USERS_PATH = '/api/admin/users'

const tags = ['administration']
const done = { type: 'null', description: 'Done' } as const
/** Every route: an administrator's session; every change: a recent sign-in too, as other sensitive changes. */
const READ = { session: 'required', role: 'admin' } as const
const CHANGE = { session: 'required', role: 'admin', recentSignIn: true } as const
const RECENT_NOTE = 'Needs a recent sign-in (401 with `WWW-Authenticate: Session error="insufficient_user_authentication"` otherwise: POST /api/auth/reauthenticate).'
const CHANGE_NOTE = `${RECENT_NOTE} Recorded on the person's activity, naming the administrator.`
const LAST_ADMIN_NOTE = 'The last enabled administrator cannot be demoted, disabled or deleted (409).'

export interface AdminUserRoutesOptions {
  users: UserAdministration
  sessionCookies: SessionCookies
}

/** The accounts of the hub, for its administrators (docs/administration.md, "Users"). */
export async function adminUserRoutes(app: App, { users, sessionCookies }: AdminUserRoutesOptions) {
  app.get(
    ADMIN_USERS_PATH,
    {
      config: READ,
      schema: {
        summary: "List the hub's accounts, newest first, or those whose address or name matches a search",
        tags,
        querystring: UsersQuerySchema,
        response: { 200: UsersPageSchema, ...errorResponses(400, 401, 403) }
      }
    },
    async (request) => users.directory.page(request.query)
  )

  app.patch(
    `${ADMIN_USERS_PATH}/:userId`,
    {
      config: CHANGE,
      schema: {
        summary: "Change an account's role, disable or enable it, or change its display name",
        description: `Disabling ends every session of the account and tells the applications (sessions-revoked). ${LAST_ADMIN_NOTE} ${CHANGE_NOTE}`,
        tags,
        params: UserParams,
        body: AccountChangesSchema,
        response: { 200: ListedUserSchema, ...errorResponses(400, 401, 403, 404, 409) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const user = await users.change(request.params.userId, request.body, session.userId)
      // Disabling yourself ends this session too.
      if (user.userId === session.userId && user.disabled) sessionCookies.clear(reply)
      return user
    }
  )

  app.post(
    `${ADMIN_USERS_PATH}/:userId/sign-out`,
    {
      config: CHANGE,
      schema: {
        summary: 'Sign the person out of every device',
        description: `Every session ends and the applications are told (sessions-revoked), as "sign out everywhere" does. ${CHANGE_NOTE}`,
        tags,
        params: UserParams,
        response: { 204: done, ...errorResponses(401, 403, 404) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      await users.signOut(request.params.userId, session.userId)
      // Signing yourself out ends this session too.
      if (request.params.userId === session.userId) sessionCookies.clear(reply)
      return reply.code(204).send(null)
    }
  )

  app.delete(
    `${ADMIN_USERS_PATH}/:userId/two-step`,
    {
      config: CHANGE,
      schema: {
        summary: 'Turn off two-step sign-in for a person who lost their authenticator app',
        description: `Removes the app's secret and the recovery codes; the person is mailed, in their language. 204 also when it was not on (then nothing is mailed or recorded). ${CHANGE_NOTE}`,
        tags,
        params: UserParams,
        response: { 204: done, ...errorResponses(401, 403, 404) }
      }
    },
    async (request, reply) => {
      await users.resetTwoStep(request.params.userId, sessionOf(request).userId)
      return reply.code(204).send(null)
    }
  )

  app.delete(
    `${ADMIN_USERS_PATH}/:userId`,
    {
      config: CHANGE,
      schema: {
        summary: 'Delete an account: the same erasure as `users:delete`',
        description:
          'Ends every session, erases what the hub holds about the person but one account.deleted audit record, mails a confirmation ' +
          'to the address and sends the applications an account-purged event (docs/account.md, "Deletion"). An administrator may delete ' +
          `their own account. ${LAST_ADMIN_NOTE} A live Stripe subscription is canceled first (503 and nothing erased when Stripe cannot be reached). ${RECENT_NOTE}`,
        tags,
        params: UserParams,
        response: { 204: done, ...errorResponses(401, 403, 404, 409, 503) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      await users.delete(request.params.userId)
      if (request.params.userId === session.userId) sessionCookies.clear(reply)
      return reply.code(204).send(null)
    }
  )
}
