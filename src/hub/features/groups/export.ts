import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { ExportDataset } from '../../kernel/records/datasets.js'

/** A person's groups in the export: each group's name and description, and when they were put in it. */
export function groupsDataset(db: Kysely<Database>): ExportDataset {
  return {
    name: 'groups',
    description: 'The groups an administrator put you in: name, description, and when you were added (recordedAt)',
    async *records(userId) {
      const rows = await db
        .selectFrom('groupMembers')
        .innerJoin('groups', 'groups.id', 'groupMembers.groupId')
        .select(['groups.id', 'groups.name', 'groups.description', 'groupMembers.addedAt'])
        .where('groupMembers.userId', '=', userId)
        .orderBy('groups.nameKey')
        .execute()
      for (const { id, name, description, addedAt } of rows) yield { id, recordedAt: addedAt, fields: { name, description } }
    }
  }
}
