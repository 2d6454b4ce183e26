import type { ActivityReading } from '../../audit/activity.js'
import type { AuditEventType } from '../../audit/events.js'
import { type Language, fillPlaceholders } from '../../language/language.js'
import { type ApplicationNames, applicationName, purposeLabel } from '../application-names.js'
import type { Translate } from '../i18n/index.js'

/** Types whose sentence already names the device ("Signed in from Chrome on Linux"). */
export const SENTENCE_NAMES_DEVICE: ReadonlySet<AuditEventType> = new Set(['signin', 'signin.failed', 'session.refreshed'])

/**
 * The event in the page's words, by its type's reading (declared by the part that records it,
 * src/hub/activity.ts). The sentence's `{placeholders}` are named after the detail fields the
 * event shows, plus `{device}`; a few types read differently by detail (a variant of the reading).
 * Applications are named as the pages name them (`names`), not by their ids.
 */
export function activitySentence(
  { t, language }: { t: Translate; language: Language },
  reading: ActivityReading,
  { type, detail }: { type: AuditEventType; detail: Record<string, unknown> },
  device: string,
  names: ApplicationNames
): string {
  const say = (sentence: Readonly<Record<Language, string>>, values?: Record<string, string | number>) => fillPlaceholders(sentence[language], values)
  switch (type) {
    case 'session.ended':
      return detail.scope === 'others' && reading.variants?.others ? say(reading.variants.others, { count: Number(detail.count ?? 0) }) : say(reading.sentence)
    case 'consent.recorded':
      return say((detail.granted === false ? reading.variants?.withdrawn : undefined) ?? reading.sentence, { purpose: purposeLabel(t, String(detail.purpose ?? ''), names) })
    case 'sso-token.issued':
      return say(reading.sentence, { audience: applicationName(names, String(detail.audience ?? '')) })
    case 'export.created':
      return say(reading.sentence, { format: String(detail.format ?? '').toUpperCase() })
    default:
      return say(reading.sentence, { ...scalarsOf(detail), device })
  }
}

function scalarsOf(detail: Record<string, unknown>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(detail).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'))
}
