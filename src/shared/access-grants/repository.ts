import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { AccessGrantRow, Database } from '../database/schema.js'
import { type AccessGrant, DEFAULT_GRANT, type Permission, isPermission } from './grant.js'

export interface GrantInput {
  userId: string
  applicationId: string
  roles: readonly string[]
  permissions: readonly Permission[]
  grantedBy: string
}

export type GrantsRepository = ReturnType<typeof createGrantsRepository>

export function createGrantsRepository(db: Kysely<Database>) {
  const selectGrants = () => db.selectFrom('accessGrants').selectAll()

  return {
    async find(userId: string, applicationId: string): Promise<AccessGrant | undefined> {
      const row = await selectGrants().where('userId', '=', userId).where('applicationId', '=', applicationId).executeTakeFirst()
      return row && toGrant(row)
    },

    /** Returns the user's grant, creating the default one when there is none (safe under races). */
    async findOrCreateDefault(userId: string, applicationId: string): Promise<AccessGrant> {
      const existing = await this.find(userId, applicationId)
      if (existing) return existing
      await db
        .insertInto('accessGrants')
        .values(toRow({ userId, applicationId, ...DEFAULT_GRANT }))
        .onConflict((conflict) => conflict.columns(['userId', 'applicationId']).doNothing())
        .execute()
      const created = await this.find(userId, applicationId)
      if (!created) throw new Error('Default grant was not stored')
      return created
    },

    /** Creates or replaces the grant of a user for an application. */
    async upsert(input: GrantInput): Promise<AccessGrant> {
      const row = toRow(input)
      await db
        .insertInto('accessGrants')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['userId', 'applicationId']).doUpdateSet({
            roles: row.roles,
            permissions: row.permissions,
            grantedBy: row.grantedBy,
            createdAt: row.createdAt
          })
        )
        .execute()
      return (await this.find(input.userId, input.applicationId)) as AccessGrant
    },

    async revoke(userId: string, applicationId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('accessGrants')
        .where('userId', '=', userId)
        .where('applicationId', '=', applicationId)
        .executeTakeFirst()
      return result.numDeletedRows > 0n
    },

    /** Every grant of the user, in every application (their account was purged). */
    async revokeAllOf(userId: string): Promise<void> {
      await db.deleteFrom('accessGrants').where('userId', '=', userId).execute()
    },

    async list(filter: { userId?: string | undefined; applicationId?: string | undefined } = {}): Promise<AccessGrant[]> {
      let query = selectGrants().orderBy('userId').orderBy('applicationId')
      if (filter.userId) query = query.where('userId', '=', filter.userId)
      if (filter.applicationId) query = query.where('applicationId', '=', filter.applicationId)
      return (await query.execute()).map(toGrant)
    }
  }
}

function toRow(input: GrantInput) {
  return {
    id: randomUUID(),
    userId: input.userId,
    applicationId: input.applicationId,
    roles: JSON.stringify(input.roles),
    permissions: JSON.stringify(input.permissions),
    grantedBy: input.grantedBy,
    createdAt: new Date().toISOString()
  }
}

function toGrant(row: AccessGrantRow): AccessGrant {
  return {
    id: row.id,
    userId: row.userId,
    applicationId: row.applicationId,
    roles: JSON.parse(row.roles) as string[],
    permissions: (JSON.parse(row.permissions) as string[]).filter(isPermission),
    grantedBy: row.grantedBy,
    createdAt: row.createdAt
  }
}
