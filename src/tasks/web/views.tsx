import type { ComponentChildren } from 'preact'
import { PageShell, Timestamp } from '../../hub/kernel/pages/layout.js'
import type { Language } from '../../hub/kernel/language/language.js'
import type { Task } from '../rules.js'
import { DESCRIPTION_MAX_LENGTH, TASK_STATUSES, TITLE_MAX_LENGTH, type TaskStatus } from '../schemas.js'
import { CSRF_FIELD } from './cookies.js'
import type { TasksTranslate } from './messages.js'

export const PAGES_PREFIX = '/pages/tasks'

/** What every page needs to know about the request it answers. */
export interface TasksPageContext {
  language: Language
  t: TasksTranslate
  /** The hub's stylesheet and the pages' script (src/tasks/client), by their hashed URLs. */
  assets: { stylesheet: string; script: string }
  /** This response's CSP nonce: the only script the page runs carries it. */
  scriptNonce: string
  /** The page's own path and query, where the language switch comes back to. */
  currentPath: string
  /** The CSRF token the page's forms repeat; null on pages shown signed out. */
  csrfToken: string | null
  /** The hub's dashboard, linked from the header. */
  hubUrl: string
}

export function TasksLayout({ context, title, children }: { context: TasksPageContext; title: string; children: ComponentChildren }) {
  const { t, csrfToken, hubUrl } = context
  const navigation = (
    <nav aria-label={t('site.mainNavigation')}>
      <ul class="nav-list">
        <li>
          <a href="/">{t('tasks.title')}</a>
        </li>
        <li>
          <a href={hubUrl}>{t('nav.hub')}</a>
        </li>
        {csrfToken !== null && (
          <li>
            <form method="post" action="/auth/sign-out" class="inline-form">
              <CsrfField token={csrfToken} />
              <button type="submit" class="link-button">
                {t('nav.signOut')}
              </button>
            </form>
          </li>
        )}
      </ul>
    </nav>
  )
  // Where the page script says what changed when it updates the page without loading another.
  const announcer = <p id="page-announcer" class="visually-hidden" role="status" />
  return (
    <PageShell {...context} nonce={context.scriptNonce} title={title} navigation={navigation} afterMain={announcer}>
      {children}
    </PageShell>
  )
}

function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />
}

/** A message at the top of the page: an error (alert) or the outcome of the last form (status). */
function Notice({ text, error }: { text: string | undefined; error?: boolean }) {
  if (text === undefined) return null
  return error ? (
    <p class="notice" role="alert">
      {text}
    </p>
  ) : (
    <p class="notice" role="status">
      {text}
    </p>
  )
}

export interface TaskListProps {
  context: TasksPageContext & { csrfToken: string }
  tasks: Task[]
  status: TaskStatus | undefined
  /** Where the older page starts, when there is one. */
  nextCursor: string | null
  /** Whether this is a later page (it then links back to the newest). */
  paged: boolean
  notice?: string
  error?: string
  /** The add form's values after a refusal, so nothing typed is lost. */
  draft?: { title: string; description: string }
}

export function TaskListPage({ context, tasks, status, nextCursor, paged, notice, error, draft }: TaskListProps) {
  const { t, language, csrfToken } = context
  const filtered = (query: Record<string, string>) => `/?${new URLSearchParams({ ...(status ? { status } : {}), ...query })}`
  // A status change comes back to this very page, without the notice of the form before it.
  const here = new URL(context.currentPath, 'http://page.invalid')
  here.searchParams.delete('notice')
  here.searchParams.delete('task')
  const back = here.pathname + here.search
  return (
    <TasksLayout context={context} title={t('tasks.title')}>
      <Notice text={error} error />
      <Notice text={notice} />
      <h2>{t('add.title')}</h2>
      <TaskFields action={PAGES_PREFIX} csrfToken={csrfToken} t={t} values={draft ?? { title: '', description: '' }} submit={t('add.submit')} />

      <form method="get" action="/" class="inline-form">
        <label for="status-filter">{t('tasks.filter')}</label>{' '}
        <select id="status-filter" name="status">
          <option value="" selected={status === undefined}>
            {t('tasks.filterAll')}
          </option>
          {TASK_STATUSES.map((option) => (
            <option value={option} selected={option === status}>
              {t(`status.${option}`)}
            </option>
          ))}
        </select>{' '}
        <button type="submit" class="secondary-button">
          {t('tasks.filterApply')}
        </button>
      </form>

      {tasks.length === 0 ? (
        <p>{t('tasks.empty')}</p>
      ) : (
        <ul class="application-list task-list">
          {tasks.map((task) => (
            <li>
              <article aria-labelledby={`task-${task.id}`}>
                <h3 id={`task-${task.id}`}>{task.title}</h3>
                {task.description && <p>{task.description}</p>}
                <p class="hint">
                  {t('tasks.created')} <Timestamp iso={task.createdAt} language={language} />
                </p>
                {/* The status in words; the buttons below change it, the one in effect filled, ticked and pressed. */}
                <p class="task-status" data-status={task.status}>
                  {t('tasks.status')} <strong>{t(`status.${task.status}`)}</strong>
                </p>
                <form method="post" action={`${PAGES_PREFIX}/${task.id}/status`} class="button-row" aria-label={t('tasks.statusLabel', { title: task.title })}>
                  <CsrfField token={csrfToken} />
                  <input type="hidden" name="back" value={back} />
                  {TASK_STATUSES.map((option) => (
                    <button type="submit" name="status" value={option} class="secondary-button status-button" aria-pressed={option === task.status ? 'true' : 'false'}>
                      {t(`status.${option}`)}
                    </button>
                  ))}
                </form>
                <p class="button-row">
                  {/* Named with the task, so that a list of links read out of context still says which. */}
                  <a href={`${PAGES_PREFIX}/${task.id}/edit`} aria-label={`${t('tasks.edit')}: ${task.title}`}>
                    {t('tasks.edit')}
                  </a>
                  <a href={`${PAGES_PREFIX}/${task.id}/delete`} aria-label={`${t('tasks.delete')}: ${task.title}`}>
                    {t('tasks.delete')}
                  </a>
                </p>
              </article>
            </li>
          ))}
        </ul>
      )}
      <p class="button-row">
        {paged && <a href={filtered({})}>{t('tasks.newest')}</a>}
        {nextCursor !== null && <a href={filtered({ cursor: nextCursor })}>{t('tasks.older')}</a>}
      </p>
    </TasksLayout>
  )
}

function TaskFields(props: { action: string; csrfToken: string; t: TasksTranslate; values: { title: string; description: string }; submit: string; cancel?: boolean }) {
  const { action, csrfToken, t, values, submit, cancel } = props
  return (
    <form method="post" action={action} class="stacked-form">
      <CsrfField token={csrfToken} />
      <label for="task-title">{t('field.title')}</label>
      <input id="task-title" name="title" type="text" required maxLength={TITLE_MAX_LENGTH} value={values.title} />
      <label for="task-description">{t('field.description')}</label>
      <textarea id="task-description" name="description" rows={4} maxLength={DESCRIPTION_MAX_LENGTH}>
        {values.description}
      </textarea>
      <p class="button-row">
        <button type="submit">{submit}</button>
        {cancel && <a href="/">{t('form.cancel')}</a>}
      </p>
    </form>
  )
}

export function EditTaskPage({ context, task, error }: { context: TasksPageContext & { csrfToken: string }; task: Pick<Task, 'id' | 'title' | 'description'>; error?: string }) {
  const { t } = context
  return (
    <TasksLayout context={context} title={t('edit.title')}>
      <Notice text={error} error />
      <TaskFields action={`${PAGES_PREFIX}/${task.id}`} csrfToken={context.csrfToken} t={t} values={task} submit={t('edit.submit')} cancel />
    </TasksLayout>
  )
}

export function DeleteTaskPage({ context, task }: { context: TasksPageContext & { csrfToken: string }; task: Task }) {
  const { t } = context
  return (
    <TasksLayout context={context} title={t('delete.title')}>
      <p>{t('delete.question', { title: task.title })}</p>
      <form method="post" action={`${PAGES_PREFIX}/${task.id}/delete`} class="button-row">
        <CsrfField token={context.csrfToken} />
        <button type="submit" class="danger-button">
          {t('delete.submit')}
        </button>
        <a href="/">{t('form.cancel')}</a>
      </form>
    </TasksLayout>
  )
}

/** A page with one message and one link: signed out, a failed sign-in, a refused form. */
export function MessagePage({ context, title, text, link }: { context: TasksPageContext; title: string; text: string; link: { href: string; label: string } }) {
  return (
    <TasksLayout context={context} title={title}>
      <p>{text}</p>
      <p>
        <a href={link.href}>{link.label}</a>
      </p>
    </TasksLayout>
  )
}
