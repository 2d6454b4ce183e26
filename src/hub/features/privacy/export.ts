import type { Kysely } from 'kysely'
import type { ConsentsTable, Database } from '../../../shared/database/schema.js'
import { type ExportDataset, pagesOf } from '../../kernel/records/datasets.js'
import { toConsentRecord } from './repository.js'
import type { PrivacyService } from './service.js'

/** A person's privacy settings and every consent decision they recorded, in the export. */
export function privacyDatasets(db: Kysely<Database>, privacy: PrivacyService): ExportDataset[] {
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
    }
  ]
}
