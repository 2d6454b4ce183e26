import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { type Role, isRole } from '../../kernel/accounts/roles.js'

export interface Profile {
  userId: string
  email: string
  emailVerified: boolean
  displayName: string | null
  locale: string | null
  role: Role
  createdAt: string
  /** False for an account made with a passkey that has set no password yet. */
  hasPassword: boolean
}

/** The signed-in person's own account row: profile, password and address. */
export function createOwnAccountRepository(db: Kysely<Database>) {
  return {
    async profileOf(userId: string): Promise<Profile | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['id', 'email', 'emailVerified', 'displayName', 'locale', 'role', 'createdAt', 'passwordHash'])
        .where('id', '=', userId)
        .executeTakeFirst()
      return row && { userId: row.id, email: row.email, emailVerified: row.emailVerified === 1, displayName: row.displayName, locale: row.locale, role: isRole(row.role) ? row.role : 'member', createdAt: row.createdAt, hasPassword: row.passwordHash !== null }
    },

    async updateProfile(userId: string, changes: { displayName?: string; locale?: string }, now: Date): Promise<void> {
      await db
        .updateTable('users')
        .set({ ...changes, updatedAt: now.toISOString() })
        .where('id', '=', userId)
        .execute()
    },

    async setPasswordHash(userId: string, passwordHash: string, now: Date, executor: Kysely<Database> = db): Promise<void> {
      await executor.updateTable('users').set({ passwordHash, updatedAt: now.toISOString() }).where('id', '=', userId).execute()
    },

    async emailOf(userId: string, executor: Kysely<Database> = db): Promise<string | undefined> {
      return (await executor.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email
    },

    /** Whether another account holds the address. */
    async isTakenByAnother(email: string, userId: string, executor: Kysely<Database> = db): Promise<boolean> {
      const row = await executor.selectFrom('users').select('id').where('email', '=', email).where('id', '<>', userId).executeTakeFirst()
      return row !== undefined
    },

    /**
     * Moves the account to an address a link mailed there has just proven: verified, on the account
     * and on its sessions (whose rows keep the address the session shows).
     */
    async moveToVerifiedEmail(userId: string, email: string, now: Date, executor: Kysely<Database>): Promise<void> {
      await executor.updateTable('users').set({ email, emailVerified: 1, updatedAt: now.toISOString() }).where('id', '=', userId).execute()
      await executor.updateTable('sessions').set({ email, emailVerified: 1 }).where('userId', '=', userId).execute()
    }
  }
}

export type OwnAccountRepository = ReturnType<typeof createOwnAccountRepository>
