import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { sessionHandle } from '../../kernel/sessions/session-handle.js'
import type { ExportDataset } from '../../kernel/records/datasets.js'

/** The account, the sessions and the known devices the hub keeps for a person; never a password hash or a session id. */
export function hubDatasets(db: Kysely<Database>): ExportDataset[] {
  return [
    {
      name: 'account',
      description: 'Your account: id, email and whether it was verified, display name, language, when it was created',
      async *records(userId) {
        // An account of an external identity provider has no row here: it has nothing to export.
        const account = await db
          .selectFrom('users')
          .select(['id', 'email', 'emailVerified', 'displayName', 'locale', 'createdAt', 'updatedAt'])
          .where('id', '=', userId)
          .executeTakeFirst()
        if (account) {
          const { email, displayName, locale, updatedAt } = account
          yield { id: account.id, recordedAt: account.createdAt, fields: { email, emailVerified: account.emailVerified === 1, displayName, locale, updatedAt } }
        }
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
        for (const { id, createdAt, ...fields } of sessions) yield { id: sessionHandle(id), recordedAt: createdAt, fields }
      }
    },
    {
      name: 'knownDevices',
      description: 'The devices you signed in from that the hub remembers to tell you of a new one: their name, first (recordedAt) and last sign-in',
      async *records(userId) {
        const devices = await db.selectFrom('knownDevices').select(['device', 'firstSeenAt', 'lastSeenAt']).where('userId', '=', userId).orderBy('firstSeenAt').execute()
        // The name is the record's id: one row per device name and account.
        for (const { device, firstSeenAt, lastSeenAt } of devices) yield { id: device, recordedAt: firstSeenAt, fields: { lastSeenAt } }
      }
    }
  ]
}
