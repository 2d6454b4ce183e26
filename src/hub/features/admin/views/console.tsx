import { AUDIT_EVENT_TYPES } from '../../../kernel/audit/events.js'
import type { ActivityReading } from '../../../kernel/audit/activity.js'
import type { AuditEventType } from '../../../kernel/audit/events.js'
import { deviceOf } from '../../../kernel/http/device.js'
import { CSRF_FORM_FIELD } from '../../../kernel/pipeline/csrf.js'
import type { ApplicationNames } from '../../../kernel/pages/application-names.js'
import { ConsoleLayout, type ConsoleSection } from '../../../kernel/pages/console.js'
import { ColumnHeadings, type PageContext, Timestamp } from '../../../kernel/pages/layout.js'
import { SENTENCE_NAMES_DEVICE, activitySentence } from '../../../kernel/pages/views/activity-sentence.js'
import { deviceLabel } from '../../../kernel/pages/views/device-label.js'
import type { AdminActivityPage as AdminActivityList } from '../activity.js'
import { CONFIRM_PATH, CONFIRM_REFUSALS, type ConfirmRefusal } from '../confirm.js'
import { adminTranslator } from '../messages.js'
import type { Overview } from '../overview.js'
import type { Queues } from '../queues.js'

interface ConsolePageProps {
  context: PageContext
  sections: readonly ConsoleSection[]
}

/** The console's front page: the hub in numbers, each leading to the section that acts on it where one is listed. */
export function OverviewPage({ context, sections, overview }: ConsolePageProps & { overview: Overview }) {
  const t = adminTranslator(context.language)
  const listed = new Set(sections.map((section) => section.path))
  const counts: { label: string; value: number; href: string }[] = [
    { label: t('admin.overview.accounts'), value: overview.accounts, href: '/admin/users' },
    { label: t('admin.overview.admins'), value: overview.admins, href: '/admin/users' },
    { label: t('admin.overview.disabled'), value: overview.disabled, href: '/admin/users' },
    { label: t('admin.overview.pendingInvitations'), value: overview.pendingInvitations, href: '/admin/invitations' },
    { label: t('admin.overview.queuedMail'), value: overview.queuedMail, href: '/admin/queues' },
    { label: t('admin.overview.pendingSecurityEvents'), value: overview.pendingSecurityEvents, href: '/admin/queues' }
  ]
  return (
    <ConsoleLayout context={context} title={t('admin.overview.title')} sections={sections}>
      <p>{t('admin.overview.intro')}</p>
      <h2>{t('admin.overview.counts')}</h2>
      <dl class="console-counts">
        {counts.map(({ label, value, href }) => (
          <div data-count={href}>
            <dt>{listed.has(href) ? <a href={href}>{label}</a> : label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </ConsoleLayout>
  )
}

export interface AdminActivityPageProps extends ConsolePageProps {
  /** The page's filters as typed, to fill the form again. */
  filters: { account: string; type: AuditEventType | undefined }
  /** The events; null when the typed account matches no account. */
  activity: AdminActivityList | null
  /** Whether this is an older page, reached through "older activity". */
  older: boolean
  readings: Readonly<Record<AuditEventType, ActivityReading>>
  names: ApplicationNames
}

/** Every account's activity, filtered by a GET form, paged by plain links: no script needed. */
export function AdminActivityPage({ context, sections, filters, activity, older, readings, names }: AdminActivityPageProps) {
  const { language } = context
  const t = adminTranslator(language)
  const filterQuery = (cursor?: string) => {
    const query = new URLSearchParams()
    if (filters.account) query.set('account', filters.account)
    if (filters.type) query.set('type', filters.type)
    if (cursor !== undefined) query.set('cursor', cursor)
    const text = query.toString()
    return `/admin/activity${text ? `?${text}` : ''}`
  }
  return (
    <ConsoleLayout context={context} title={t('admin.activity.title')} sections={sections}>
      <p>{t('admin.activity.intro')}</p>
      <form method="get" action="/admin/activity" class="stacked-form console-filters" aria-label={t('admin.activity.filters')}>
        <label for="activity-account">{t('admin.activity.account')}</label>
        <input id="activity-account" name="account" type="text" value={filters.account} autocomplete="off" spellcheck={false} />
        <label for="activity-type">{t('admin.activity.type')}</label>
        <select id="activity-type" name="type">
          <option value="">{t('admin.activity.anyType')}</option>
          {AUDIT_EVENT_TYPES.map((type) => (
            <option value={type} selected={type === filters.type}>
              {type}
            </option>
          ))}
        </select>
        <button type="submit">{t('admin.activity.apply')}</button>
        {(filters.account || filters.type) && <a href="/admin/activity">{t('admin.activity.clear')}</a>}
      </form>
      {activity === null ? (
        <p role="status">{t('admin.activity.noAccount', { account: filters.account })}</p>
      ) : activity.events.length === 0 ? (
        <p role="status">{t('admin.activity.none')}</p>
      ) : (
        <table class="console-table">
          <ColumnHeadings labels={[t('admin.activity.who'), t('admin.activity.what'), t('admin.activity.when'), t('admin.activity.from')]} />
          <tbody>
            {activity.events.map((event) => {
              const device = event.userAgent ? deviceLabel(t, deviceOf(event.userAgent), event.userAgent) : t('admin.activity.unknownDevice')
              const origin = [SENTENCE_NAMES_DEVICE.has(event.type) || !event.userAgent ? null : device, event.ip].filter(Boolean).join(' · ')
              return (
                <tr data-type={event.type} data-user-id={event.userId}>
                  <td data-label={t('admin.activity.who')}>{event.email ?? t('admin.activity.deletedAccount')}</td>
                  <td data-label={t('admin.activity.what')}>{activitySentence(context, readings[event.type], event, device, names)}</td>
                  <td data-label={t('admin.activity.when')}>
                    <Timestamp iso={event.at} language={language} />
                  </td>
                  <td data-label={t('admin.activity.from')}>{origin}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      {activity !== null && (older || activity.nextCursor !== null) && (
        <p class="button-row">
          {older && <a href={filterQuery()}>{t('admin.activity.newest')}</a>}
          {activity.nextCursor !== null && (
            <a href={filterQuery(activity.nextCursor)} rel="next">
              {t('admin.activity.next')}
            </a>
          )}
        </p>
      )}
    </ConsoleLayout>
  )
}

/** The operator's queues: the mail outbox and the security events still to deliver. Read-only: the hub retries on its own. */
export function QueuesPage({ context, sections, queues }: ConsolePageProps & { queues: Queues }) {
  const { language } = context
  const t = adminTranslator(language)
  const { mail, events } = queues
  return (
    <ConsoleLayout context={context} title={t('admin.queues.title')} sections={sections}>
      <p>{t('admin.queues.intro')}</p>
      <h2 id="mail-outbox">{t('admin.queues.mail')}</h2>
      {mail.mails.length === 0 ? (
        <p>{t('admin.queues.mailNone')}</p>
      ) : (
        <>
          {mail.total > mail.mails.length && <p>{t('admin.queues.shown', { shown: mail.mails.length, total: mail.total })}</p>}
          <table class="console-table" aria-labelledby="mail-outbox">
            <ColumnHeadings
              labels={[t('admin.queues.recipient'), t('admin.queues.subject'), t('admin.queues.status'), t('admin.queues.attempts'), t('admin.queues.nextAttempt'), t('admin.queues.lastError')]}
            />
            <tbody>
              {mail.mails.map((queued) => (
                <tr data-mail={queued.id}>
                  <td data-label={t('admin.queues.recipient')}>{queued.recipient}</td>
                  <td data-label={t('admin.queues.subject')}>{queued.subject}</td>
                  <td data-label={t('admin.queues.status')}>{queued.status === 'failed' ? t('admin.queues.failed') : t('admin.queues.waiting')}</td>
                  <td data-label={t('admin.queues.attempts')}>{queued.attempts}</td>
                  <td data-label={t('admin.queues.nextAttempt')}>{queued.status === 'failed' ? '—' : <Timestamp iso={queued.nextAttemptAt} language={language} />}</td>
                  <td data-label={t('admin.queues.lastError')}>{queued.lastError ?? t('admin.queues.noError')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h2 id="security-events">{t('admin.queues.events')}</h2>
      {events.events.length === 0 ? (
        <p>{t('admin.queues.eventsNone')}</p>
      ) : (
        <>
          {events.total > events.events.length && <p>{t('admin.queues.shown', { shown: events.events.length, total: events.total })}</p>}
          <table class="console-table" aria-labelledby="security-events">
            <ColumnHeadings
              labels={[
                t('admin.queues.application'),
                t('admin.queues.eventType'),
                t('admin.queues.subjectAccount'),
                t('admin.queues.happened'),
                t('admin.queues.attempts'),
                t('admin.queues.nextAttempt'),
                t('admin.queues.lastError')
              ]}
            />
            <tbody>
              {events.events.map((event) => (
                <tr data-event={event.id}>
                  <td data-label={t('admin.queues.application')}>{event.applicationId}</td>
                  <td data-label={t('admin.queues.eventType')}>{event.eventType.slice(event.eventType.lastIndexOf('/') + 1)}</td>
                  <td data-label={t('admin.queues.subjectAccount')}>{event.email ?? event.userId}</td>
                  <td data-label={t('admin.queues.happened')}>
                    <Timestamp iso={event.createdAt} language={language} />
                  </td>
                  <td data-label={t('admin.queues.attempts')}>{event.attempts}</td>
                  <td data-label={t('admin.queues.nextAttempt')}>
                    <Timestamp iso={event.nextAttemptAt} language={language} />
                  </td>
                  <td data-label={t('admin.queues.lastError')}>{event.lastError ?? t('admin.queues.noError')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </ConsoleLayout>
  )
}

export interface ConfirmPageProps extends ConsolePageProps {
  /** Where the form sends the person once confirmed: a console path. */
  next: string
  /** Whether two-step sign-in is on: then a code, since the password alone is refused. */
  codeRequired: boolean
  refused: ConfirmRefusal | undefined
  csrfToken: string
}

/** "Confirm it is you" as a plain form: the console's forms work without script, their confirm step too. */
export function ConfirmPage({ context, sections, next, codeRequired, refused, csrfToken }: ConfirmPageProps) {
  const t = adminTranslator(context.language)
  return (
    <ConsoleLayout context={context} title={t('admin.confirm.title')} sections={sections}>
      <p>{t('admin.confirm.intro')}</p>
      <form method="post" action={CONFIRM_PATH} class="stacked-form">
        <input type="hidden" name={CSRF_FORM_FIELD} value={csrfToken} />
        <input type="hidden" name="next" value={next} />
        {refused !== undefined && (
          <p class="form-message" role="alert" id="confirm-refused">
            {t(CONFIRM_REFUSALS[refused])}
          </p>
        )}
        {codeRequired ? (
          <>
            <label for="confirm-code">{t('admin.confirm.code')}</label>
            <input
              id="confirm-code"
              name="code"
              type="text"
              inputmode="numeric"
              autocomplete="one-time-code"
              required
              maxLength={16}
              aria-describedby={refused !== undefined ? 'confirm-refused' : undefined}
            />
          </>
        ) : (
          <>
            <label for="confirm-password">{t('admin.confirm.password')}</label>
            <input id="confirm-password" name="password" type="password" autocomplete="current-password" required aria-describedby={refused !== undefined ? 'confirm-refused' : undefined} />
          </>
        )}
        <button type="submit">{t('admin.confirm.submit')}</button>
      </form>
    </ConsoleLayout>
  )
}
