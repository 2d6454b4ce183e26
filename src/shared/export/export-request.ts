/**
 * What the hub and its applications agree an export request is (docs/privacy.md, "Export across
 * the family"): the hub asks each application for what it holds about a person with a short-lived
 * token signed by its SSO keys, and the application answers its records in this shape.
 */

/** The `typ` header of an export request token, which no other token of the hub carries. */
export const EXPORT_REQUEST_TOKEN_TYPE = 'hearth-export+jwt'
/** The `scope` claim's one value: the token lets its bearer read, once, the person's data. */
export const EXPORT_SCOPE = 'export'
/** Long enough for one request to travel; an application remembers a `jti` longer than this. */
export const EXPORT_REQUEST_LIFETIME_SECONDS = 60

/** Where the task manager answers the hub's export requests. */
export const TASKS_EXPORT_PATH = '/export/hearth'

/** One record an application holds, as the hub's own datasets give theirs. */
export interface ApplicationExportRecord {
  id: string
  recordedAt: string | null
  fields: Record<string, unknown>
}

/** An application's answer: its datasets by name, each a list of records. */
export interface ApplicationExport {
  datasets: Record<string, ApplicationExportRecord[]>
}
