import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { ViolationOccurrences } from './violation.js'

export const DEFAULT_MAX_STORED_VIOLATIONS = 10_000

export interface CspReportRepositoryOptions {
  /** Distinct violations kept; past it the least recently seen are dropped. */
  maxStoredViolations?: number
}

export type CspReportRepository = ReturnType<typeof createCspReportRepository>

export function createCspReportRepository(db: Kysely<Database>, options: CspReportRepositoryOptions = {}) {
  const maxStoredViolations = options.maxStoredViolations ?? DEFAULT_MAX_STORED_VIOLATIONS

  /** Inserts or counts one violation; answers whether it was new. */
  async function upsert({ fingerprint, violation, occurrences }: ViolationOccurrences, seenAt: string): Promise<boolean> {
    const row = await db
      .insertInto('cspReports')
      .values({ fingerprint, ...violation, count: occurrences, firstSeen: seenAt, lastSeen: seenAt })
      .onConflict((conflict) =>
        conflict.column('fingerprint').doUpdateSet((eb) => ({
          count: eb('cspReports.count', '+', eb.ref('excluded.count')),
          lastSeen: eb.ref('excluded.lastSeen'),
          userAgent: eb.ref('excluded.userAgent')
        }))
      )
      .returning('firstSeen')
      .executeTakeFirstOrThrow()
    // A row that already existed keeps its earlier first-seen time.
    return row.firstSeen === seenAt
  }

  /** Keeps the newest `maxStoredViolations` rows by last seen (ties broken by fingerprint). */
  async function dropOldest(): Promise<void> {
    const newestToDrop = await db
      .selectFrom('cspReports')
      .select(['lastSeen', 'fingerprint'])
      .orderBy('lastSeen', 'desc')
      .orderBy('fingerprint', 'desc')
      .limit(1)
      .offset(maxStoredViolations)
      .executeTakeFirst()
    if (!newestToDrop) return
    await db
      .deleteFrom('cspReports')
      .where((eb) => eb(eb.refTuple('lastSeen', 'fingerprint'), '<=', eb.tuple(newestToDrop.lastSeen, newestToDrop.fingerprint)))
      .execute()
  }

  return {
    /**
     * Stores a request's violations. No transaction: each upsert stands alone, so concurrent
     * requests never hold locks on each other's rows, and the table only grows on an insert,
     * which is when the cap is enforced.
     */
    async record(violations: readonly ViolationOccurrences[], seenAt: Date): Promise<void> {
      const timestamp = seenAt.toISOString()
      let inserted = false
      for (const violation of violations) inserted = (await upsert(violation, timestamp)) || inserted
      if (inserted) await dropOldest()
    }
  }
}
