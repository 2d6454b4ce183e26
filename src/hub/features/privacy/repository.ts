import { randomUUID } from 'node:crypto'
import { type Kysely, PostgresAdapter, sql } from 'kysely'
import type { ConsentsTable, Database } from '../../../shared/database/schema.js'
import { type Param, prepareQuery } from '../../../shared/database/prepared-query.js'
import type { PrivacySettings } from './settings.js'

export interface ConsentRecord {
  id: string
  purpose: string
  granted: boolean
  version: string | null
  recordedAt: string
}

export interface ConsentDecision {
  purpose: string
  granted: boolean
  version: string | null
}

export type PrivacyRepository = ReturnType<typeof createPrivacyRepository>

/** The first key of the PostgreSQL advisory locks this module takes, so they meet no other lock. */
const PRIVACY_LOCK_SPACE = 4

/** Settings documents and the append-only consent log; `db` may be a transaction. */
export function createPrivacyRepository(db: Kysely<Database>) {
  // Read by every privacy request, and by the pages.
  const settingsOf = prepareQuery(db, (param: Param<{ userId: string }>) =>
    db.selectFrom('privacySettings').select('document').where('userId', '=', param('userId'))
  )
  return {
    /**
     * Serialises one user's privacy writes until the transaction `db` ends, so a read-merge-save
     * never loses a concurrent one. PostgreSQL takes an advisory lock on the user, which, unlike
     * SELECT ... FOR UPDATE, needs no row to exist yet; SQLite runs one write transaction at a time.
     */
    async lockUser(userId: string): Promise<void> {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
      await sql`select pg_advisory_xact_lock(${PRIVACY_LOCK_SPACE}, hashtext(${userId}))`.execute(db)
    },

    async findSettings(userId: string): Promise<PrivacySettings | undefined> {
      const row = await settingsOf.first({ userId })
      return row && (JSON.parse(row.document) as PrivacySettings)
    },

    async saveSettings(userId: string, settings: PrivacySettings & { updatedAt: string }): Promise<void> {
      const row = {
        document: JSON.stringify(settings),
        activityLogDays: settings.retention.activityLogDays,
        updatedAt: settings.updatedAt
      }
      await db
        .insertInto('privacySettings')
        .values({ userId, ...row })
        .onConflict((conflict) => conflict.column('userId').doUpdateSet(row))
        .execute()
    },

    /**
     * Appends in the order given. Each record's time is strictly later than the user's previous
     * one, even within one millisecond, so newest-first is insertion order and never a tie that a
     * random id would break (callers hold `lockUser`, so no other append interleaves).
     */
    async appendConsents(userId: string, decisions: ConsentDecision[], now: Date): Promise<ConsentRecord[]> {
      if (decisions.length === 0) return []
      const latest = await db
        .selectFrom('consents')
        .select('recordedAt')
        .where('userId', '=', userId)
        .orderBy('recordedAt', 'desc')
        .limit(1)
        .executeTakeFirst()
      let previous = latest?.recordedAt
      const rows = decisions.map(({ purpose, granted, version }) => {
        previous = strictlyAfter(previous, now)
        return { id: randomUUID(), userId, purpose, granted: granted ? 1 : 0, version, recordedAt: previous }
      })
      await db.insertInto('consents').values(rows).execute()
      return rows.map(toConsentRecord)
    },

    /** Newest first. */
    consents(userId: string) {
      return db
        .selectFrom('consents')
        .selectAll()
        .where('userId', '=', userId)
        .orderBy('recordedAt', 'desc')
        .orderBy('id', 'desc')
    },

    async listConsents(userId: string): Promise<ConsentRecord[]> {
      return (await this.consents(userId).execute()).map(toConsentRecord)
    }
  }
}

/**
 * Withdraws, in the transaction `trx`, every consent the person has granted whose purpose starts
 * with `purposePrefix` (a `granted: false` record each, as withdrawing one by hand records), and
 * answers their purposes: the OpenID Connect applications' remembered consents on a first proof of
 * the address (docs/account.md, "Account pre-hijacking").
 */
export async function withdrawGrantedConsents(trx: Kysely<Database>, userId: string, purposePrefix: string, now: Date): Promise<string[]> {
  const consents = createPrivacyRepository(trx)
  await consents.lockUser(userId)
  const current = new Map<string, boolean>()
  // Newest first: the first record of a purpose is its current decision.
  for (const { purpose, granted } of await consents.listConsents(userId)) if (!current.has(purpose)) current.set(purpose, granted)
  const withdrawn = [...current].filter(([purpose, granted]) => granted && purpose.startsWith(purposePrefix)).map(([purpose]) => purpose)
  await consents.appendConsents(
    userId,
    withdrawn.map((purpose) => ({ purpose, granted: false, version: null })),
    now
  )
  return withdrawn
}

function strictlyAfter(previous: string | undefined, now: Date): string {
  const earliest = previous === undefined ? 0 : Date.parse(previous) + 1
  return new Date(Math.max(now.getTime(), earliest)).toISOString()
}

export function toConsentRecord(row: ConsentsTable): ConsentRecord {
  return { id: row.id, purpose: row.purpose, granted: row.granted === 1, version: row.version, recordedAt: row.recordedAt }
}
