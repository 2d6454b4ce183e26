import type { AuditEventType } from '../../../kernel/audit/events.js'
import { type ApplicationNames, applicationName, purposeLabel } from '../../../kernel/pages/application-names.js'
import type { ActivityEvent } from '../activity.js'
import type { ActivityMessageKey, ActivityTranslate } from '../messages.js'

/** Each type's sentence in the catalogues: a type without one does not compile (and a test names it). */
export const activitySentenceKey = (type: AuditEventType): ActivityMessageKey => `activity.event.${type}`

/** Types whose sentence already names the device ("Signed in from Chrome on Linux"). */
export const SENTENCE_NAMES_DEVICE: ReadonlySet<AuditEventType> = new Set(['signin', 'signin.failed', 'session.refreshed'])

/**
 * The event in the page's words. The sentence's `{placeholders}` are named after the detail fields
 * the event shows (`ACTIVITY_DETAIL_FIELDS`), plus `{device}`; a few types read differently by detail.
 * Applications are named as the pages name them (`names`), not by their ids.
 */
export function activitySentence(t: ActivityTranslate, { type, detail }: ActivityEvent, device: string, names: ApplicationNames): string {
  switch (type) {
    case 'session.ended':
      return detail.scope === 'others' ? t('activity.event.session.ended.others', { count: Number(detail.count ?? 0) }) : t(activitySentenceKey(type))
    case 'consent.recorded':
      return t(detail.granted === false ? 'activity.event.consent.recorded.withdrawn' : activitySentenceKey(type), { purpose: purposeLabel(t, String(detail.purpose ?? ''), names) })
    case 'sso-token.issued':
      return t(activitySentenceKey(type), { audience: applicationName(names, String(detail.audience ?? '')) })
    case 'export.created':
      return t(activitySentenceKey(type), { format: String(detail.format ?? '').toUpperCase() })
    default:
      return t(activitySentenceKey(type), { ...scalarsOf(detail), device })
  }
}

function scalarsOf(detail: Record<string, unknown>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(detail).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'))
}
