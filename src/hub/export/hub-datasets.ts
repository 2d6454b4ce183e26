import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../shared/database/schema.js'
import type { ExportDataset } from './datasets.js'

/**
 * A session as the export names it: a digest of its id, never the id itself, which is what the
 * signed auth cookie carries.
 */
export function exportedSessionId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url').slice(0, 22)
}

/** The account and the sessions the hub keeps for a person; never a password hash or a session id. */
export function hubDatasets(db: Kysely<Database>): ExportDataset[] {
  return [
    {
      name: 'account',
      description: 'Your account: id, email, when it was created',
      async *records(userId) {
        // An account of an external identity provider has no row here: it has nothing to export.
        const account = await db.selectFrom('users').select(['id', 'email', 'createdAt', 'updatedAt']).where('id', '=', userId).executeTakeFirst()
        if (account) yield { id: account.id, recordedAt: account.createdAt, fields: { email: account.email, updatedAt: account.updatedAt } }
      }
    },
    {
      name: 'sessions',
      description: 'Your sessions, without their secrets',
      async *records(userId) {
        const sessions = await db
          .selectFrom('sessions')
          .select(['id', 'userAgent', 'createdAt', 'lastSeenAt', 'expiresAt'])
          .where('userId', '=', userId)
          .orderBy('createdAt')
          .execute()
        for (const { id, createdAt, ...fields } of sessions) yield { id: exportedSessionId(id), recordedAt: createdAt, fields }
      }
    }
  ]
}
