import { randomUUID } from 'node:crypto'
import { type Kysely, PostgresAdapter } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'

/** A passkey as the account pages and the export show it: nothing an authenticator needs. */
export interface ListedPasskey {
  id: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

/** What verifying an assertion needs of a stored passkey. */
export interface StoredPasskey {
  id: string
  userId: string
  credentialId: string
  publicKey: string
  signCount: number
  transports: string[]
}

export interface NewPasskey {
  userId: string
  credentialId: string
  publicKey: string
  signCount: number
  transports: string[]
  aaguid: string
  name: string
}

const LISTED = ['id', 'name', 'createdAt', 'lastUsedAt'] as const

/** The `passkeys` table. Every read and change by id is scoped to its owner. */
export function createPasskeyRepository(db: Kysely<Database>) {
  const onPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    async countOf(userId: string, executor: Kysely<Database> = db): Promise<number> {
      const { count } = await executor.selectFrom('passkeys').select((eb) => eb.fn.countAll().as('count')).where('userId', '=', userId).executeTakeFirstOrThrow()
      return Number(count)
    },

    /**
     * As `countOf`, in a transaction that locks the account's row on PostgreSQL until it ends, so
     * two registrations racing at a cap cannot both count below it (SQLite runs one writer at a time).
     */
    async countLocked(userId: string, trx: Kysely<Database>): Promise<number> {
      await trx.selectFrom('users').select('id').where('id', '=', userId).$if(onPostgres, (query) => query.forUpdate()).execute()
      return this.countOf(userId, trx)
    },

    /** How many passkeys each of these accounts has (absent: none), for the console's list of accounts, a page at once. */
    async countsOf(userIds: readonly string[]): Promise<Map<string, number>> {
      if (userIds.length === 0) return new Map()
      const rows = await db.selectFrom('passkeys').select(['userId', (eb) => eb.fn.countAll<number | string>().as('count')]).where('userId', 'in', userIds).groupBy('userId').execute()
      return new Map(rows.map(({ userId, count }) => [userId, Number(count)]))
    },

    /** Oldest first: the order they were added in. */
    listOf(userId: string): Promise<ListedPasskey[]> {
      return db.selectFrom('passkeys').select(LISTED).where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute()
    },

    async credentialIdsOf(userId: string): Promise<{ id: string; transports: string[] }[]> {
      const rows = await db.selectFrom('passkeys').select(['credentialId', 'transports']).where('userId', '=', userId).execute()
      return rows.map((row) => ({ id: row.credentialId, transports: JSON.parse(row.transports) as string[] }))
    },

    async findByCredentialId(credentialId: string): Promise<StoredPasskey | undefined> {
      const row = await db
        .selectFrom('passkeys')
        .select(['id', 'userId', 'credentialId', 'publicKey', 'signCount', 'transports'])
        .where('credentialId', '=', credentialId)
        .executeTakeFirst()
      return row && { ...row, signCount: Number(row.signCount), transports: JSON.parse(row.transports) as string[] }
    },

    /** False when the credential is registered already (to this account or another). */
    async insert(passkey: NewPasskey, now: Date, executor: Kysely<Database> = db): Promise<ListedPasskey | null> {
      const row = {
        ...passkey,
        id: randomUUID(),
        transports: JSON.stringify(passkey.transports),
        createdAt: now.toISOString(),
        lastUsedAt: null
      }
      const inserted = await executor.insertInto('passkeys').values(row).onConflict((conflict) => conflict.column('credentialId').doNothing()).executeTakeFirst()
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null
      return { id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: null }
    },

    async rename(userId: string, id: string, name: string): Promise<ListedPasskey | undefined> {
      const updated = await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('userId', '=', userId).executeTakeFirst()
      if (Number(updated.numUpdatedRows) === 0) return undefined
      return db.selectFrom('passkeys').select(LISTED).where('id', '=', id).where('userId', '=', userId).executeTakeFirst()
    },

    /**
     * Removes one of the account's passkeys, unless it is the last way in: its last passkey, on an
     * account without a password. Counted under the account's lock (`countLocked`), so two removals
     * racing on an account with two passkeys cannot both go.
     */
    async remove(userId: string, id: string): Promise<'removed' | 'not-found' | 'last-way-in'> {
      return db.transaction().execute(async (trx) => {
        const count = await this.countLocked(userId, trx)
        const account = await trx.selectFrom('users').select('passwordHash').where('id', '=', userId).executeTakeFirst()
        const owned = await trx.selectFrom('passkeys').select('id').where('id', '=', id).where('userId', '=', userId).executeTakeFirst()
        if (!owned) return 'not-found'
        if (account?.passwordHash === null && count <= 1) return 'last-way-in'
        await trx.deleteFrom('passkeys').where('id', '=', id).execute()
        return 'removed'
      })
    },

    /**
     * Records a use: the new counter, only if the stored one is still what the assertion was
     * checked against. False when another use got there first, so two uses of one counter value
     * (a cloned authenticator racing the original) never both succeed, across instances.
     */
    async recordUse(passkey: StoredPasskey, signCount: number, now: Date): Promise<boolean> {
      const updated = await db
        .updateTable('passkeys')
        .set({ signCount, lastUsedAt: now.toISOString() })
        .where('id', '=', passkey.id)
        .where('signCount', '=', passkey.signCount)
        .executeTakeFirst()
      return Number(updated.numUpdatedRows) > 0
    }
  }
}

export type PasskeyRepository = ReturnType<typeof createPasskeyRepository>
