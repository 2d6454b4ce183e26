import type { Insertable, Selectable } from 'kysely'

/**
 * The database as TypeScript sees it (camelCase; CamelCasePlugin maps to snake_case columns).
 * Timestamps are ISO 8601 UTC strings with milliseconds in both dialects, so they sort as text
 * and reach the API unchanged.
 */
export interface Database {
  tasks: TasksTable
  accessGrants: AccessGrantsTable
  cspReports: CspReportsTable
}

export interface TasksTable {
  id: string
  title: string
  description: string
  status: string
  assignee: string
  createdAt: string
  updatedAt: string
}

export interface AccessGrantsTable {
  id: string
  userId: string
  applicationId: string
  /** JSON array of role names. */
  roles: string
  /** JSON array of permission names. */
  permissions: string
  grantedBy: string
  createdAt: string
}

export type TaskRow = Selectable<TasksTable>
export type AccessGrantRow = Selectable<AccessGrantsTable>
export type NewAccessGrantRow = Insertable<AccessGrantsTable>

/** One distinct CSP violation (see docs/csp-reports.md); URIs are stored without query or fragment. */
export interface CspReportsTable {
  fingerprint: string
  documentUri: string
  directive: string
  blockedUri: string | null
  sourceFile: string | null
  lineNumber: number | null
  /** The user agent of the latest report. */
  userAgent: string | null
  count: number
  firstSeen: string
  lastSeen: string
}
