import type { AccountSession } from '../../sessions/account-sessions.js'
import { FormMessage, Layout, type PageContext } from '../layout.js'
import type { PageUser } from '../shell.js'
import { SessionsTable } from './sessions-table.js'

/** A registered application as the dashboard lists it: by its display name, with the link to it. */
export interface DashboardApplication {
  id: string
  name: string
  url: string
}

export interface DashboardProps {
  context: PageContext
  user: PageUser
  applications: readonly DashboardApplication[]
  /** Newest first, named by their handles: never by the id the auth cookie carries. */
  sessions: AccountSession[]
}

export function DashboardPage({ context, user, applications, sessions }: DashboardProps) {
  const { t } = context
  return (
    <Layout context={context} title={t('dashboard.title')}>
      <p>{t('dashboard.signedInAs', { email: user.email })}</p>

      <h2>{t('dashboard.applications')}</h2>
      {applications.length === 0 ? (
        <p>{t('dashboard.noApplications')}</p>
      ) : (
        <ul class="application-list">
          {applications.map(({ id, name, url }) => (
            <li data-application={id}>
              <span class="application-name">{name}</span>
              <a href={url}>{t('dashboard.open', { application: name })}</a>
            </li>
          ))}
        </ul>
      )}
      <FormMessage />

      <SessionsTable context={context} sessions={sessions} />
      <p>
        <a href="/account/security">{t('security.manageLink')}</a>
      </p>
      <p>
        <a href="/activity">{t('dashboard.activityLink')}</a>
      </p>
      <p>
        <a href="/billing">{t('dashboard.billingLink')}</a>
      </p>
    </Layout>
  )
}
