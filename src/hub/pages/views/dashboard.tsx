import type { AccountSession } from '../../sessions/account-sessions.js'
import type { Translate } from '../i18n/index.js'
import { ColumnHeadings, FormMessage, Layout, type PageContext, Timestamp, formatTimestamp } from '../layout.js'

export interface PageUser {
  userId: string
  email: string
}

export interface DashboardProps {
  context: PageContext
  user: PageUser
  /** Registered applications: id → URL. */
  applications: Readonly<Record<string, string>>
  /** Newest first, named by their handles: never by the id the auth cookie carries. */
  sessions: AccountSession[]
}

export function DashboardPage({ context, user, applications, sessions }: DashboardProps) {
  const { t } = context
  const entries = Object.entries(applications)
  return (
    <Layout context={context} title={t('dashboard.title')}>
      <p>{t('dashboard.signedInAs', { email: user.email })}</p>
      <p class="hint">{t('dashboard.userId', { userId: user.userId })}</p>

      <h2>{t('dashboard.applications')}</h2>
      {entries.length === 0 ? (
        <p>{t('dashboard.noApplications')}</p>
      ) : (
        <ul class="application-list">
          {entries.map(([application, url]) => (
            <li>
              <span class="application-name">{application}</span>
              <a href={url}>{t('dashboard.open', { application })}</a>
            </li>
          ))}
        </ul>
      )}
      <FormMessage />

      <SessionsTable context={context} sessions={sessions} />
    </Layout>
  )
}

/** "Chrome on Linux", or the half the parser knew, or the raw user agent when it knew neither. */
function deviceLabel(t: Translate, { device: { browser, os }, userAgent }: AccountSession): string {
  if (browser && os) return t('dashboard.deviceOn', { browser, os })
  return browser ?? os ?? (userAgent || t('dashboard.unknownDevice'))
}

/** Every other session can be ended from its row, or all of them at once; the current one by signing out. */
function SessionsTable({ context: { t, language }, sessions }: { context: PageContext; sessions: AccountSession[] }) {
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t('dashboard.sessions')}</h2>
      <table>
        <ColumnHeadings labels={[t('dashboard.sessionDevice'), t('dashboard.sessionStarted'), t('dashboard.sessionLastSeen'), '']} />
        <tbody>
          {sessions.map((session) => {
            const device = deviceLabel(t, session)
            return (
              <tr data-session={session.current ? 'current' : 'other'}>
                <td>
                  {device}
                  {session.current && <strong class="badge">{t('dashboard.thisSession')}</strong>}
                </td>
                <td>
                  <Timestamp iso={session.createdAt} language={language} />
                </td>
                <td>
                  <Timestamp iso={session.lastSeenAt} language={language} />
                </td>
                <td>
                  {!session.current && (
                    <button type="button" data-action="end-session" data-session-id={session.id}>
                      {t('dashboard.endSession')}{' '}
                      <span class="visually-hidden">{t('dashboard.endSessionDetail', { device, date: formatTimestamp(session.createdAt, language) })}</span>
                    </button>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {sessions.some((session) => !session.current) && (
        <p>
          <button type="button" data-action="end-other-sessions">
            {t('dashboard.endOtherSessions')}
          </button>
        </p>
      )}
      <FormMessage />
    </section>
  )
}
