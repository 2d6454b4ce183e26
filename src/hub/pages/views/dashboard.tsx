import { ColumnHeadings, FormMessage, Layout, type PageContext, Timestamp } from '../layout.js'

export interface PageUser {
  userId: string
  email: string
}

/** A session as the dashboard lists it: never its secret. */
export interface SessionSummary {
  id: string
  userAgent: string
  createdAt: string
  lastSeenAt: string
}

export interface DashboardProps {
  context: PageContext
  user: PageUser
  /** Registered applications: id → URL. */
  applications: Readonly<Record<string, string>>
  sessions: SessionSummary[]
  currentSessionId: string
}

export function DashboardPage({ context, user, applications, sessions, currentSessionId }: DashboardProps) {
  const { t, language } = context
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
              <button type="button" data-action="open-app" data-audience={application} data-url={url}>
                {t('dashboard.open', { application })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormMessage />

      <h2>{t('dashboard.sessions')}</h2>
      <table>
        <ColumnHeadings labels={[t('dashboard.sessionDevice'), t('dashboard.sessionStarted'), t('dashboard.sessionLastSeen')]} />
        <tbody>
          {sessions.map((session) => (
            <tr data-session={session.id === currentSessionId ? 'current' : 'other'}>
              <td>
                {session.userAgent || t('dashboard.unknownDevice')}
                {session.id === currentSessionId && <strong class="badge">{t('dashboard.thisSession')}</strong>}
              </td>
              <td>
                <Timestamp iso={session.createdAt} language={language} />
              </td>
              <td>
                <Timestamp iso={session.lastSeenAt} language={language} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Layout>
  )
}
