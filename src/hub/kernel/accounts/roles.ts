import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'

/** What an account may do beyond its own: an administrator runs the hub (docs/administration.md). */
export const ROLES = ['member', 'admin'] as const
export type Role = (typeof ROLES)[number]

export function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value)
}

/** The account's role; undefined when there is no such account. */
export async function roleOf(db: Kysely<Database>, userId: string): Promise<Role | undefined> {
  const row = await db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst()
  if (!row) return undefined
  return isRole(row.role) ? row.role : 'member'
}

/** How many enabled administrators the hub has: the last one may be neither demoted, disabled nor deleted. */
export async function countEnabledAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('count')).where('role', '=', 'admin').where('disabled', '=', 0).executeTakeFirstOrThrow()
  return Number(row.count)
}
