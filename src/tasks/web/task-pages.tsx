import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Permission } from '../../shared/access-grants/grant.js'
import { PLAIN_TEXT } from '../../shared/http/validation.js'
import { safeNextPath } from '../../hub/kernel/language/next-path.js'
import { type ListPosition, decodeCursor, encodeCursor } from '../cursor.js'
import { type AccessRule, checkAccess } from '../plugins/access-check.js'
import type { TasksRepository } from '../repository.js'
import { isTaskId, newTask } from '../rules.js'
import { DESCRIPTION_MAX_LENGTH, TASK_STATUSES, TITLE_MAX_LENGTH, type TaskStatus } from '../schemas.js'
import type { BrowserSessionCookies, SignedInRequest } from './browser-session.js'
import { NOTICES, type TasksMessageKey, type TasksTranslate, tasksTranslator } from './messages.js'
import type { PageRendering } from './page-rendering.js'
import { SIGN_IN_PATH } from './auth-routes.js'
import { DeleteTaskPage, EditTaskPage, MessagePage, PAGES_PREFIX, TaskListPage, type TaskListProps } from './views.js'

/** Tasks on one page of the list. */
export const TASKS_PAGE_SIZE = 20

export interface TaskPagesOptions {
  tasks: TasksRepository
  cookies: BrowserSessionCookies
  pages: PageRendering
  access: AccessRule
}

const hide = true
// A page answers a page, never a JSON 400: odd query values are ignored where they are read.
const ListQuery = Type.Object({
  status: Type.Optional(Type.Unknown()),
  cursor: Type.Optional(Type.Unknown()),
  notice: Type.Optional(Type.Unknown()),
  task: Type.Optional(Type.Unknown())
})
const TaskFields = Type.Object({
  title: Type.String({ minLength: 1, maxLength: TITLE_MAX_LENGTH, [PLAIN_TEXT]: true }),
  description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX_LENGTH, [PLAIN_TEXT]: true }))
})
const TaskParams = Type.Object({ taskId: Type.String() })

type FormFields = Record<string, string>

/** `?notice=status&task=<id>`: the list names the task and its status now. */
const STATUS_NOTICE = 'status'

const isStatus = (value: unknown): value is TaskStatus => typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value)

/**
 * The person's tasks as pages, over the same repository as the API. Every change is an HTML form
 * (POST, then a redirect to a page), so all of it works without a script; each form repeats the
 * session's CSRF token.
 */
export async function taskPages(app: FastifyInstance, { tasks, cookies, pages, access }: TaskPagesOptions) {
  const showMessage = (request: FastifyRequest, reply: FastifyReply, session: SignedInRequest, status: number, key: TasksMessageKey) => {
    const context = pages.contextOf(request, reply, session)
    return pages.send(reply.code(status), <MessagePage context={context} title={context.t(key)} text={context.t(key)} link={{ href: '/', label: context.t('tasks.title') }} />)
  }

  /**
   * The session, the permission and, for a form, its CSRF token; answers the page itself (a
   * redirect to sign in, 403) and resolves to null when the request goes no further.
   */
  const admit = async (request: FastifyRequest, reply: FastifyReply, permission: Permission): Promise<SignedInRequest | null> => {
    const session = await cookies.signedIn(request)
    if (session === null) {
      await reply.redirect(request.method === 'GET' ? `${SIGN_IN_PATH}?${new URLSearchParams({ next: request.url })}` : SIGN_IN_PATH, 303)
      return null
    }
    if (request.method === 'POST' && !cookies.formIsGenuine(request, session)) {
      await pages.refusedForm(request, reply, session)
      return null
    }
    // The API's rule for the person behind the page.
    if (!(await checkAccess(access, request, session.userId, permission)).allowed) {
      await showMessage(request, reply, session, 403, 'error.permission')
      return null
    }
    return session
  }

  /** The field refused, by what a person can fix. */
  const fieldsError = (request: FastifyRequest): TasksMessageKey | undefined => {
    if (!request.validationError) return undefined
    const title = (request.body as FormFields).title
    return typeof title !== 'string' || title.trim() === '' ? 'error.titleRequired' : 'error.invalidText'
  }
  const blankTitle = (fields: FormFields) => (fields.title ?? '').trim() === ''

  const findTask = async (request: { params: { taskId: string } }, userId: string) => (isTaskId(request.params.taskId) ? tasks.findOwned(request.params.taskId.toLowerCase(), userId) : undefined)

  /** One page of the list; `extra` carries a notice, or the add form's refusal and what was typed. */
  const sendList = async (request: FastifyRequest, reply: FastifyReply, session: SignedInRequest, query: { status?: TaskStatus; after?: ListPosition }, extra: Partial<Pick<TaskListProps, 'notice' | 'error' | 'draft'>> = {}) => {
    const page = await tasks.listOwned(session.userId, { limit: TASKS_PAGE_SIZE, ...query })
    const last = page.tasks.at(-1)
    const context = pages.contextOf(request, reply, session)
    const nextCursor = page.hasMore && last ? encodeCursor(last) : null
    return pages.send(reply, <TaskListPage context={context} tasks={page.tasks} status={query.status} nextCursor={nextCursor} paged={query.after !== undefined} {...extra} />)
  }

  /** After a status change: which task is now in which status, in words (the task as it is now; none once it is gone). */
  const statusNotice = async (taskId: unknown, userId: string, t: TasksTranslate): Promise<string | undefined> => {
    const task = typeof taskId === 'string' ? await findTask({ params: { taskId } }, userId) : undefined
    return task && t('notice.status', { title: task.title, status: t(`status.${task.status}`) })
  }

  app.get<{ Querystring: { status?: unknown; cursor?: unknown; notice?: unknown; task?: unknown } }>('/', { schema: { hide, querystring: ListQuery } }, async (request, reply) => {
    const session = await admit(request, reply, 'read')
    if (!session) return reply
    const status = isStatus(request.query.status) ? request.query.status : undefined
    const after = listPosition(request.query.cursor)
    const t = tasksTranslator(pages.languageOf(request))
    const key = Object.entries(NOTICES).find(([name]) => name === request.query.notice)?.[1]
    const notice = request.query.notice === STATUS_NOTICE ? await statusNotice(request.query.task, session.userId, t) : key && t(key)
    return sendList(request, reply, session, { ...(status ? { status } : {}), ...(after ? { after } : {}) }, notice ? { notice } : {})
  })

  app.post<{ Body: FormFields }>(PAGES_PREFIX, { schema: { hide, body: TaskFields }, attachValidation: true }, async (request, reply) => {
    const session = await admit(request, reply, 'write')
    if (!session) return reply
    const refused = fieldsError(request) ?? (blankTitle(request.body) ? 'error.titleRequired' : undefined)
    if (refused) {
      const draft = { title: request.body.title ?? '', description: request.body.description ?? '' }
      return sendList(request, reply.code(400), session, {}, { error: tasksTranslator(pages.languageOf(request))(refused), draft })
    }
    const { title, description } = request.body as { title: string; description?: string }
    await tasks.insert(newTask({ title, ...(description === undefined ? {} : { description }) }, session.userId, new Date()))
    return reply.redirect('/?notice=created', 303)
  })

  app.get<{ Params: { taskId: string } }>(`${PAGES_PREFIX}/:taskId/edit`, { schema: { hide, params: TaskParams } }, async (request, reply) => {
    const session = await admit(request, reply, 'read')
    if (!session) return reply
    const task = await findTask(request, session.userId)
    if (!task) return showMessage(request, reply, session, 404, 'error.notFound')
    return pages.send(reply, <EditTaskPage context={pages.contextOf(request, reply, session)} task={task} />)
  })

  app.post<{ Params: { taskId: string }; Body: FormFields }>(`${PAGES_PREFIX}/:taskId`, { schema: { hide, params: TaskParams, body: TaskFields }, attachValidation: true }, async (request, reply) => {
    const session = await admit(request, reply, 'write')
    if (!session) return reply
    const task = await findTask(request, session.userId)
    if (!task) return showMessage(request, reply, session, 404, 'error.notFound')
    const refused = fieldsError(request) ?? (blankTitle(request.body) ? 'error.titleRequired' : undefined)
    if (refused) {
      const context = pages.contextOf(request, reply, session)
      const draft = { id: task.id, title: request.body.title ?? '', description: request.body.description ?? '' }
      return pages.send(reply.code(400), <EditTaskPage context={context} task={draft} error={context.t(refused)} />)
    }
    await tasks.updateOwned(task.id, session.userId, { title: request.body.title as string, description: request.body.description ?? '' }, new Date())
    return reply.redirect('/?notice=saved', 303)
  })

  app.post<{ Params: { taskId: string }; Body: FormFields }>(`${PAGES_PREFIX}/:taskId/status`, { schema: { hide, params: TaskParams } }, async (request, reply) => {
    const session = await admit(request, reply, 'write')
    if (!session) return reply
    const task = await findTask(request, session.userId)
    if (!task) return showMessage(request, reply, session, 404, 'error.notFound')
    const back = safeNextPath(request.body.back) ?? '/'
    if (!isStatus(request.body.status)) return reply.redirect(back, 303)
    await tasks.updateOwned(task.id, session.userId, { status: request.body.status }, new Date())
    // Back to the same page, which says what changed: the confirmation a form without script gets.
    const landing = new URL(back, 'http://page.invalid')
    landing.searchParams.set('notice', STATUS_NOTICE)
    landing.searchParams.set('task', task.id)
    return reply.redirect(landing.pathname + landing.search, 303)
  })

  app.get<{ Params: { taskId: string } }>(`${PAGES_PREFIX}/:taskId/delete`, { schema: { hide, params: TaskParams } }, async (request, reply) => {
    const session = await admit(request, reply, 'delete')
    if (!session) return reply
    const task = await findTask(request, session.userId)
    if (!task) return showMessage(request, reply, session, 404, 'error.notFound')
    return pages.send(reply, <DeleteTaskPage context={pages.contextOf(request, reply, session)} task={task} />)
  })

  app.post<{ Params: { taskId: string }; Body: FormFields }>(`${PAGES_PREFIX}/:taskId/delete`, { schema: { hide, params: TaskParams } }, async (request, reply) => {
    const session = await admit(request, reply, 'delete')
    if (!session) return reply
    const task = await findTask(request, session.userId)
    if (!task) return showMessage(request, reply, session, 404, 'error.notFound')
    await tasks.deleteOwned(task.id, session.userId)
    return reply.redirect('/?notice=deleted', 303)
  })
}

/** A garbled or foreign cursor shows the newest tasks rather than an error. */
function listPosition(cursor: unknown) {
  if (typeof cursor !== 'string') return undefined
  try {
    return decodeCursor(cursor)
  } catch {
    return undefined
  }
}
