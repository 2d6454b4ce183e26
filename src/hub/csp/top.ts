import type { Kysely } from 'kysely'
import type { Database } from '../../shared/database/schema.js'
import type { CspViolation } from './violation.js'

export interface ViolationSummary extends CspViolation {
  count: number
  firstSeen: string
  lastSeen: string
}

/** The most reported violations, most first; among equals, the most recently seen first. */
export async function mostFrequentViolations(db: Kysely<Database>, limit: number): Promise<ViolationSummary[]> {
  return db
    .selectFrom('cspReports')
    .select(['documentUri', 'directive', 'blockedUri', 'sourceFile', 'lineNumber', 'userAgent', 'count', 'firstSeen', 'lastSeen'])
    .orderBy('count', 'desc')
    .orderBy('lastSeen', 'desc')
    .orderBy('fingerprint')
    .limit(limit)
    .execute()
}
