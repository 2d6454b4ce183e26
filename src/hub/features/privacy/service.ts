import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { RequestOrigin } from '../../kernel/audit/context.js'
import { createAuditTrail } from '../../kernel/audit/repository.js'
import { applyConsent, consentsImpliedBy, settingOf } from './consent-purposes.js'
import { type ConsentDecision, type ConsentRecord, type PrivacyRepository, createPrivacyRepository } from './repository.js'
import { type PrivacySettings, type PrivacySettingsPatch, defaultSettings, mergeSettings, withApplications } from './settings.js'

export interface ConsentOverview {
  consents: ConsentRecord[]
  current: Record<string, { granted: boolean; version: string | null; recordedAt: string }>
}

export type PrivacyService = ReturnType<typeof createPrivacyService>

/**
 * Privacy settings and consent as one truth: a consent to a purpose that a setting controls
 * changes that setting, and a settings change that flips such a flag is logged as consent.
 * Each write is one transaction, serialised per user and audited.
 */
export function createPrivacyService(db: Kysely<Database>, applications: readonly string[]) {
  // Outside a transaction, one repository: its settings read is prepared once.
  const outsideTransactions = createPrivacyRepository(db)

  async function settingsIn(repository: PrivacyRepository, userId: string): Promise<PrivacySettings> {
    const stored = await repository.findSettings(userId)
    return stored ? withApplications(stored, applications) : defaultSettings(applications)
  }

  async function save(trx: Kysely<Database>, userId: string, before: PrivacySettings, after: PrivacySettings, now: string) {
    const saved = { ...after, updatedAt: now }
    await createPrivacyRepository(trx).saveSettings(userId, saved)
    if (after.retention.activityLogDays < before.retention.activityLogDays) {
      await createAuditTrail(trx).pruneUser(userId, after.retention.activityLogDays)
    }
    return saved
  }

  return {
    settings: (userId: string) => settingsIn(outsideTransactions, userId),

    async updateSettings(userId: string, patch: PrivacySettingsPatch, origin: RequestOrigin): Promise<PrivacySettings> {
      return db.transaction().execute(async (trx) => {
        const repository = createPrivacyRepository(trx)
        await repository.lockUser(userId)
        const now = new Date()
        const before = await settingsIn(repository, userId)
        const after = mergeSettings(before, patch, applications)
        const saved = await save(trx, userId, before, after, now.toISOString())
        const implied = consentsImpliedBy(before, after).map((decision) => ({ ...decision, version: null }))
        await repository.appendConsents(userId, implied, now)
        await createAuditTrail(trx).record({
          userId,
          type: 'privacy.updated',
          detail: { changed: Object.keys(patch), consents: implied.map(({ purpose, granted }) => ({ purpose, granted })) },
          ...origin
        })
        return saved
      })
    },

    async recordConsent(userId: string, decision: ConsentDecision, origin: RequestOrigin): Promise<ConsentRecord> {
      const linked = settingOf(decision.purpose, applications)
      return db.transaction().execute(async (trx) => {
        const repository = createPrivacyRepository(trx)
        await repository.lockUser(userId)
        const [record] = (await repository.appendConsents(userId, [decision], new Date())) as [ConsentRecord]
        if (linked) {
          const before = await settingsIn(repository, userId)
          await save(trx, userId, before, applyConsent(before, linked, decision.granted), record.recordedAt)
        }
        await createAuditTrail(trx).record({ userId, type: 'consent.recorded', detail: { ...decision }, ...origin })
        return record
      })
    },

    async consents(userId: string): Promise<ConsentOverview> {
      const consents = await outsideTransactions.listConsents(userId)
      const current: ConsentOverview['current'] = {}
      for (const { purpose, granted, version, recordedAt } of consents) {
        current[purpose] ??= { granted, version, recordedAt }
      }
      return { consents, current }
    }
  }
}
