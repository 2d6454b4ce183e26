import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { ConsentsTable, Database } from '../../shared/database/schema.js'
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

/** Settings documents and the append-only consent log; `db` may be a transaction. */
export function createPrivacyRepository(db: Kysely<Database>) {
  return {
    async findSettings(userId: string): Promise<PrivacySettings | undefined> {
      const row = await db.selectFrom('privacySettings').select('document').where('userId', '=', userId).executeTakeFirst()
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

    async appendConsents(userId: string, decisions: ConsentDecision[], recordedAt: string): Promise<ConsentRecord[]> {
      if (decisions.length === 0) return []
      const rows = decisions.map((decision) => ({
        id: randomUUID(),
        userId,
        purpose: decision.purpose,
        granted: decision.granted ? 1 : 0,
        version: decision.version,
        recordedAt
      }))
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

export function toConsentRecord(row: ConsentsTable): ConsentRecord {
  return { id: row.id, purpose: row.purpose, granted: row.granted === 1, version: row.version, recordedAt: row.recordedAt }
}
