import type { Translate } from './i18n/index.js'

/**
 * What the pages call the applications a person meets: HUB_APPS entries by their display name
 * (`;name=`, else the id title-cased: src/shared/config.ts) and OpenID Connect clients by the name
 * they were registered with. An id is shown only for what has no name any more (an application
 * or client removed since the record was made).
 */
export interface ApplicationNames {
  /** HUB_APPS display names, by application id. */
  applications: Readonly<Record<string, string>>
  /** Registered OpenID Connect clients' names, by client id. */
  clients: Readonly<Record<string, string>>
}

export const NO_APPLICATION_NAMES: ApplicationNames = { applications: {}, clients: {} }

export function applicationName(names: ApplicationNames, id: string): string {
  return Object.hasOwn(names.applications, id) ? (names.applications[id] as string) : id
}

export function clientName(names: ApplicationNames, clientId: string): string {
  return Object.hasOwn(names.clients, clientId) ? (names.clients[clientId] as string) : clientId
}

/** A purpose in the page's words; an application in one (`data-sharing:<id>`, `oidc:<client id>`) by its name. */
export function purposeLabel(t: Translate, purpose: string, names: ApplicationNames): string {
  if (purpose.startsWith('data-sharing:')) return t('privacy.purpose.dataSharing', { application: applicationName(names, purpose.slice('data-sharing:'.length)) })
  if (purpose.startsWith('oidc:')) return t('privacy.purpose.oidc', { application: clientName(names, purpose.slice('oidc:'.length)) })
  if (purpose === 'terms' || purpose === 'analytics' || purpose === 'marketing') return t(`privacy.purpose.${purpose}`)
  return purpose
}
