import type { AccountSession } from '../../sessions/account-sessions.js'
import { ColumnHeadings, FormMessage, type PageContext, Timestamp, formatTimestamp } from '../layout.js'
import { deviceLabel } from './device-label.js'

/** Every other session can be ended from its row, or all of them at once; the current one by signing out. */
export function SessionsTable({ context: { t, language }, sessions }: { context: PageContext; sessions: AccountSession[] }) {
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t('dashboard.sessions')}</h2>
      <table>
        <ColumnHeadings labels={[t('dashboard.sessionDevice'), t('dashboard.sessionStarted'), t('dashboard.sessionLastSeen'), '']} />
        <tbody>
          {sessions.map((session) => {
            const device = deviceLabel(t, session.device, session.userAgent)
            return (
              <tr data-session={session.current ? 'current' : 'other'}>
                <td data-label={t('dashboard.sessionDevice')}>
                  {device}
                  {session.current && <strong class="badge">{t('dashboard.thisSession')}</strong>}
                </td>
                <td data-label={t('dashboard.sessionStarted')}>
                  <Timestamp iso={session.createdAt} language={language} />
                </td>
                <td data-label={t('dashboard.sessionLastSeen')}>
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
