import type { ActivityReading } from '../../../kernel/audit/activity.js'
import type { AuditEventType } from '../../../kernel/audit/events.js'
import type { ApplicationNames } from '../../../kernel/pages/application-names.js'
import { ColumnHeadings, Layout, type PageContext, Timestamp } from '../../../kernel/pages/layout.js'
import { deviceLabel } from '../../../kernel/pages/views/device-label.js'
import { deviceOf } from '../../../kernel/http/device.js'
import type { ActivityPage as ActivityList } from '../activity.js'
import { SENTENCE_NAMES_DEVICE, activitySentence } from '../../../kernel/pages/views/activity-sentence.js'
import { activityTranslator } from '../messages.js'

export interface ActivityPageProps {
  context: PageContext
  activity: ActivityList
  /** How each event type reads (src/hub/activity.ts). */
  readings: Readonly<Record<AuditEventType, ActivityReading>>
  /** Whether this is an older page, reached through "older activity". */
  older: boolean
  names: ApplicationNames
}

/** The person's activity log, a page at a time; plain links page through it, no script needed. */
export function ActivityPage({ context, activity: { events, nextCursor }, readings, older, names }: ActivityPageProps) {
  const { language } = context
  const t = activityTranslator(language)
  return (
    <Layout context={context} title={t('activity.title')}>
      <p>
        {t('activity.intro')} <a href="/privacy">{t('activity.retention')}</a>.
      </p>
      {events.length === 0 ? (
        <p>{t('activity.none')}</p>
      ) : (
        <table class="activity-list">
          <ColumnHeadings labels={[t('activity.what'), t('activity.when'), t('activity.from')]} />
          <tbody>
            {events.map((event) => {
              const device = event.userAgent ? deviceLabel(t, deviceOf(event.userAgent), event.userAgent) : t('activity.unknownDevice')
              const origin = [SENTENCE_NAMES_DEVICE.has(event.type) || !event.userAgent ? null : device, event.ip].filter(Boolean).join(' · ')
              return (
                <tr data-type={event.type}>
                  <td data-label={t('activity.what')}>{activitySentence(context, readings[event.type], event, device, names)}</td>
                  <td data-label={t('activity.when')}>
                    <Timestamp iso={event.at} language={language} />
                  </td>
                  <td data-label={t('activity.from')}>{origin}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      {(older || nextCursor !== null) && (
        <p class="button-row">
          {older && <a href="/activity">{t('activity.newest')}</a>}
          {nextCursor !== null && (
            <a href={`/activity?cursor=${encodeURIComponent(nextCursor)}`} rel="next">
              {t('activity.older')}
            </a>
          )}
        </p>
      )}
    </Layout>
  )
}
