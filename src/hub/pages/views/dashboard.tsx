import type { AccountSession } from '../../sessions/account-sessions.js'
import { FormMessage, Layout, type PageContext } from '../layout.js'
import { SessionsTable } from './sessions-table.js'

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
