import type { Kysely } from 'kysely'
import type { GrantsRepository } from '../../../shared/access-grants/repository.js'
import type { AuditEventsTable, ConsentsTable, Database } from '../../../shared/database/schema.js'
import { toConsentRecord } from '../privacy/repository.js'
import type { PrivacyService } from '../privacy/service.js'
import { type ExportDataset, pagesOf } from './datasets.js'

/** The datasets of the privacy features, the access grants and the audit trail. */
export function privacyDatasets(db: Kysely<Database>, privacy: PrivacyService, grants: GrantsRepository): ExportDataset[] {
  return [
    {
      name: 'privacySettings',
      description: 'Your privacy settings',
      async *records(userId) {
        const { updatedAt, ...groups } = await privacy.settings(userId)
        yield { id: 'settings', recordedAt: updatedAt, fields: groups }
      }
    },
    {
      name: 'consents',
      description: 'Every consent decision you recorded, oldest first',
      async *records(userId) {
        const rows = pagesOf<ConsentsTable>((after, limit) => {
          let query = db.selectFrom('consents').selectAll().where('userId', '=', userId)
          if (after) query = query.where((eb) => eb(eb.refTuple('recordedAt', 'id'), '>', eb.tuple(after.recordedAt, after.id)))
          return query.orderBy('recordedAt').orderBy('id').limit(limit).execute()
        })
        for await (const row of rows) {
          const { id, recordedAt, ...fields } = toConsentRecord(row)
          yield { id, recordedAt, fields }
        }
      }
    },
    {
      name: 'accessGrants',
      description: 'The applications you may use and with which permissions',
      async *records(userId) {
        for (const { id, createdAt, userId: _userId, ...fields } of await grants.list({ userId })) {
          yield { id, recordedAt: createdAt, fields }
        }
      }
    },
    {
      name: 'auditTrail',
      description: 'Security events of your account (sign-ins, sign-outs, changes, exports)',
      async *records(userId) {
        const rows = pagesOf<AuditEventsTable>((after, limit) => {
          let query = db.selectFrom('auditEvents').selectAll().where('userId', '=', userId)
          if (after) query = query.where((eb) => eb(eb.refTuple('createdAt', 'id'), '>', eb.tuple(after.createdAt, after.id)))
          return query.orderBy('createdAt').orderBy('id').limit(limit).execute()
        })
        for await (const { id, createdAt, userId: _userId, detail, ...fields } of rows) {
          yield { id, recordedAt: createdAt, fields: { ...fields, detail: JSON.parse(detail) as unknown } }
        }
      }
    }
  ]
}
