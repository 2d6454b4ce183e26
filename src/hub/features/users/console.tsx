import type { FastifyInstance, FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { HttpError } from '../../../shared/errors.js'
import type { App } from '../../../shared/http/server.js'
import { LAST_ADMINISTRATOR } from '../../kernel/accounts/roles.js'
import { acceptFormBodies } from '../../kernel/http/form-bodies.js'
import type { ConsoleSection } from '../../kernel/pages/console.js'
import type { HubPage } from '../../kernel/pages/shell.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { RecentSignIn } from '../../kernel/sessions/recent-sign-in.js'
import { USERS_PAGE_SIZE, USERS_QUERY_MAX_LENGTH } from './directory.js'
import { USERS_ERRORS, USERS_NOTICES, type UsersError, type UsersNotice, usersTranslator } from './messages.js'
import type { UserAdministration } from './service.js'
import { USERS_CONSOLE_PATH, UserPage, UsersListPage, userConsolePath } from './views/users.js'

/** The console's page where a change asks for a recent sign-in first (the console's front page's feature builds it). */
export const CONFIRM_PATH = '/admin/confirm'

/** The Users section in the console's navigation. */
export const USERS_SECTION: ConsoleSection = { path: USERS_CONSOLE_PATH, label: (language) => usersTranslator(language)('users.section') }

// A page answers a page, never a JSON 400: its query's values are read as they come.
const ListQuery = Type.Object({ query: Type.Optional(Type.Unknown()), cursor: Type.Optional(Type.Unknown()), notice: Type.Optional(Type.Unknown()), error: Type.Optional(Type.Unknown()) })
const MessageQuery = Type.Object({ notice: Type.Optional(Type.Unknown()), error: Type.Optional(Type.Unknown()) })

const known = <Key extends string>(keys: readonly Key[], value: unknown): Key | undefined => (keys as readonly unknown[]).includes(value) ? (value as Key) : undefined

/** The Users section's pages: the list with its search, and each account's page with its forms. */
export function usersConsolePages(users: UserAdministration, sections: readonly ConsoleSection[]): HubPage[] {
  return [
    {
      path: USERS_CONSOLE_PATH,
      signedIn: true,
      administrators: true,
      querystring: ListQuery,
      async render({ request, reply, session, shell }) {
        const { query, cursor, notice, error } = request.query as Record<string, unknown>
        const search = typeof query === 'string' ? query.trim().slice(0, USERS_QUERY_MAX_LENGTH) : ''
        const limit = USERS_PAGE_SIZE.default
        let list
        let later = false
        if (typeof cursor === 'string') {
          // A garbled link to a later page shows the first one rather than an error.
          try {
            list = await users.directory.page({ query: search, limit, cursor })
            later = true
          } catch (failure) {
            if (!(failure instanceof HttpError && failure.statusCode === 400)) throw failure
          }
        }
        list ??= await users.directory.page({ query: search, limit })
        return (
          <UsersListPage
            context={await shell.contextOf(request, reply, session)}
            sections={sections}
            list={list}
            query={search}
            later={later}
            selfId={session.userId}
            notice={known(USERS_NOTICES, notice)}
            error={known(USERS_ERRORS, error)}
          />
        )
      }
    },
    {
      path: `${USERS_CONSOLE_PATH}/:userId`,
      signedIn: true,
      administrators: true,
      querystring: MessageQuery,
      async render({ request, reply, session, shell }) {
        const { userId } = request.params as { userId: string }
        const user = await users.directory.find(userId)
        if (!user) return reply.redirect(`${USERS_CONSOLE_PATH}?error=not-found`, 303)
        const { notice, error } = request.query as Record<string, unknown>
        return (
          <UserPage
            context={await shell.contextOf(request, reply, session)}
            sections={sections}
            user={user}
            csrfToken={reply.formCsrfToken()}
            selfId={session.userId}
            notice={known(USERS_NOTICES, notice)}
            error={known(USERS_ERRORS, error)}
          />
        )
      }
    }
  ]
}

const FormFields = Type.Object({ _csrf: Type.Optional(Type.String()) }, { additionalProperties: Type.Union([Type.String(), Type.Array(Type.String())]) })
const FormParams = Type.Object({ userId: Type.String({ maxLength: 64 }) })

/** The form's field as one string; a repeated field counts as missing. */
const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : undefined
}

/** A refusal shown on the page it came from; anything else is the hub's error. */
const refusalOf = (failure: unknown): UsersError => {
  if (failure instanceof HttpError) {
    if (failure.statusCode === 409 && failure.message === LAST_ADMINISTRATOR) return 'last-admin'
    if (failure.statusCode === 404) return 'not-found'
    if (failure.statusCode === 400) return 'name-invalid'
  }
  throw failure
}

export interface UsersConsoleFormsOptions {
  users: UserAdministration
  recentSignIn: RecentSignIn
}

/**
 * The forms of an account's page, posted by a browser without script (`csrf: 'form'`: the token
 * in the `_csrf` field). Each change asks for a recent sign-in, as the API does: without one, the
 * person is sent to confirm it and comes back to the account's page. After a change, back to the
 * page with `?notice=`; after a refusal, with `?error=`.
 */
export async function usersConsoleForms(app: App, { users, recentSignIn }: UsersConsoleFormsOptions) {
  await app.register(async function forms(scope: FastifyInstance) {
    acceptFormBodies(scope)
    const config = { session: 'required', role: 'admin', csrf: 'form' } as const
    const schema = { hide: true, params: FormParams, body: FormFields }

    /** Runs one change of the account's page: the recent sign-in first, then `change`, then back with its notice or the refusal. */
    const post = (what: string, change: (userId: string, by: string, body: unknown) => Promise<{ notice: UsersNotice; to?: string } | { error: UsersError } | null>) =>
      scope.post<{ Params: { userId: string } }>(`${USERS_CONSOLE_PATH}/:userId/${what}`, { config, schema }, async (request, reply: FastifyReply) => {
        const session = sessionOf(request)
        const page = userConsolePath(request.params.userId)
        if (!(await recentSignIn.isRecent(session.id))) return reply.redirect(`${CONFIRM_PATH}?next=${encodeURIComponent(page)}`, 303)
        let outcome
        try {
          outcome = await change(request.params.userId, session.userId, request.body)
        } catch (failure) {
          const error = refusalOf(failure)
          return reply.redirect(error === 'not-found' ? `${USERS_CONSOLE_PATH}?error=${error}` : `${page}?error=${error}`, 303)
        }
        // Nothing to do (a form's field not as the page wrote it): back to the page, saying nothing.
        if (outcome === null) return reply.redirect(page, 303)
        if ('error' in outcome) return reply.redirect(`${page}?error=${outcome.error}`, 303)
        return reply.redirect(`${outcome.to ?? page}?notice=${outcome.notice}`, 303)
      })

    post('role', async (userId, by, body) => {
      const role = field(body, 'role')
      if (role !== 'admin' && role !== 'member') return null
      await users.change(userId, { role }, by)
      return { notice: 'role-changed' }
    })
    post('status', async (userId, by, body) => {
      const disabled = field(body, 'disabled') === 'true'
      await users.change(userId, { disabled }, by)
      return { notice: disabled ? 'disabled' : 'enabled' }
    })
    post('name', async (userId, by, body) => {
      await users.change(userId, { displayName: field(body, 'displayName') ?? '' }, by)
      return { notice: 'name-changed' }
    })
    post('sign-out', async (userId, by) => {
      await users.signOut(userId, by)
      return { notice: 'signed-out' }
    })
    post('two-step', async (userId, by) => ({ notice: (await users.resetTwoStep(userId, by)) ? 'two-step-removed' : 'two-step-was-off' }))
    post('delete', async (userId, _by, body) => {
      if (field(body, 'confirm') !== 'yes') return { error: 'confirm-delete' }
      await users.delete(userId)
      return { notice: 'deleted', to: USERS_CONSOLE_PATH }
    })
  })
}
