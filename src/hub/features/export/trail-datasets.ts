import type { Kysely } from 'kysely'
import type { GrantsRepository } from '../../../shared/access-grants/repository.js'
import type { AuditEventsTable, Database } from '../../../shared/database/schema.js'
import { type ExportDataset, pagesOf } from '../../kernel/records/datasets.js'

/** The applications a person may use, and the audit trail: the last of the hub's datasets. */
export function trailDatasets(db: Kysely<Database>, grants: GrantsRepository): ExportDataset[] {
  return [
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
