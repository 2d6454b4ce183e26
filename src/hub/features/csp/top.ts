import type { Kysely } from 'kysely'
import type { CspReportsTable, Database } from '../../../shared/database/schema.js'

/** A stored violation with its count and when it was first and last seen. */
export type ViolationSummary = Omit<CspReportsTable, 'fingerprint'>

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
