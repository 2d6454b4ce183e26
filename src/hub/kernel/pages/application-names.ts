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
