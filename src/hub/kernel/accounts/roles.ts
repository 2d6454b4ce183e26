import { type Kysely, PostgresAdapter, sql } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { conflict } from '../http/http-errors.js'

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

/** The 409 of a change that would leave the hub without an enabled administrator. */
export const LAST_ADMINISTRATOR = 'This is the last administrator of the hub: make another account an administrator first, then try again'

/** The first key of the PostgreSQL advisory lock `lockAdministrators` takes, so it meets no other lock. */
const ADMINISTRATORS_LOCK_SPACE = 5

/**
 * Serialises, until the transaction `trx` ends, every change that may take an enabled
 * administrator away (demoting, disabling, deleting), so that two of them racing (two
 * administrators demoting each other) cannot both count the other and leave none. PostgreSQL takes
 * one advisory lock; SQLite takes its write lock at once with an update that changes nothing, so
 * another process's change waits for it rather than failing on a stale read.
 */
export async function lockAdministrators(trx: Kysely<Database>): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(${ADMINISTRATORS_LOCK_SPACE}, 0)`.execute(trx)
    return
  }
  await trx
    .updateTable('users')
    .set({ role: sql`role` })
    .where(sql<boolean>`1 = 0`)
    .execute()
}

/**
 * Whether the account is the hub's only enabled administrator: then it may be neither demoted,
 * disabled nor deleted. Race-safe only inside a transaction holding `lockAdministrators`.
 */
export async function isLastAdministrator(db: Kysely<Database>, userId: string): Promise<boolean> {
  const account = await db.selectFrom('users').select(['role', 'disabled']).where('id', '=', userId).executeTakeFirst()
  if (account?.role !== 'admin' || account.disabled !== 0) return false
  const others = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .where('id', '<>', userId)
    .limit(1)
    .executeTakeFirst()
  return others === undefined
}

/** 409 `LAST_ADMINISTRATOR` when the account is the only enabled administrator. */
export async function refuseLastAdministrator(db: Kysely<Database>, userId: string): Promise<void> {
  if (await isLastAdministrator(db, userId)) throw conflict(LAST_ADMINISTRATOR)
}
