import { badRequest } from '../../../shared/errors.js'
import { OPTIONAL_COOKIES, type OptionalCookie, type PrivacySettings } from './settings.js'

export const PURPOSE_PATTERN = '^[a-z][a-z0-9:_-]{0,63}$'
const DATA_SHARING_PREFIX = 'data-sharing:'

/** The setting a consent purpose controls, if any: one truth for consent and settings. */
export type LinkedSetting = { group: 'cookies'; key: OptionalCookie } | { group: 'dataSharing'; key: string }

export function settingOf(purpose: string, applications: readonly string[]): LinkedSetting | undefined {
  if ((OPTIONAL_COOKIES as readonly string[]).includes(purpose)) return { group: 'cookies', key: purpose as OptionalCookie }
  if (purpose.startsWith(DATA_SHARING_PREFIX)) {
    const application = purpose.slice(DATA_SHARING_PREFIX.length)
    if (!applications.includes(application)) throw badRequest(`Purpose names an unknown application: ${application}`)
    return { group: 'dataSharing', key: application }
  }
  return undefined
}

export function applyConsent(settings: PrivacySettings, setting: LinkedSetting, granted: boolean): PrivacySettings {
  return setting.group === 'cookies'
    ? { ...settings, cookies: { ...settings.cookies, [setting.key]: granted } }
    : { ...settings, dataSharing: { ...settings.dataSharing, [setting.key]: granted } }
}

/** The consent decisions a settings change amounts to: one per linked flag that changed. */
export function consentsImpliedBy(before: PrivacySettings, after: PrivacySettings): { purpose: string; granted: boolean }[] {
  const cookies = OPTIONAL_COOKIES.filter((cookie) => before.cookies[cookie] !== after.cookies[cookie]).map((cookie) => ({
    purpose: cookie as string,
    granted: after.cookies[cookie]
  }))
  const sharing = Object.entries(after.dataSharing)
    .filter(([application, granted]) => (before.dataSharing[application] ?? false) !== granted)
    .map(([application, granted]) => ({ purpose: `${DATA_SHARING_PREFIX}${application}`, granted }))
  return [...cookies, ...sharing]
}
