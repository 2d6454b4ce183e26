import { type Kysely, sql } from 'kysely'
import { validate as isUuid } from 'uuid'
import type { Database } from '../../../shared/database/schema.js'
import { decodeKeysetCursor, encodeKeysetCursor } from '../../../shared/http/keyset-cursor.js'
import type { AccountFacts } from '../../kernel/accounts/account-facts.js'
import { groupNamesOf } from '../../kernel/accounts/groups.js'
import { type Role, isRole } from '../../kernel/accounts/roles.js'

export const USERS_PAGE_SIZE = { min: 1, max: 100, default: 50 } as const
/** The longest search a person types; longer is a 400 (the API) or cut (the console). */
export const USERS_QUERY_MAX_LENGTH = 200

/** An account as an administrator sees it (`GET /api/admin/users`). */
export interface ListedUser {
  userId: string
  email: string
  emailVerified: boolean
  displayName: string | null
  role: Role
  disabled: boolean
  createdAt: string
  /** The newest sign-in the account's audit trail still holds; null when it holds none. */
  lastSignInAt: string | null
  twoStep: boolean
  passkeys: number
  /** Its groups' names, sorted. */
  groups: string[]
}

export interface UsersPage {
  /** Newest account first. */
  users: ListedUser[]
  hasMore: boolean
  nextCursor: string | null
}

export interface UsersQuery {
  /** Matches the address or the display name, anywhere, case-insensitively. */
  query?: string | undefined
  limit: number
  /** A `nextCursor` of an earlier page; a malformed one is a 400. */
  cursor?: string | undefined
}

/** `query` as a LIKE pattern matching it anywhere: its own `%`, `_` and `\` stand for themselves. */
export function containsPattern(query: string): string {
  return `%${query.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/**
 * The accounts as the console lists them. `facts`: what the features keep of each (two-step
 * sign-in, passkeys), read for a page at once, as the groups and the last sign-ins are.
 */
export function createUserDirectory(db: Kysely<Database>, facts: (userIds: readonly string[]) => Promise<Map<string, AccountFacts>>) {
  const rowsQuery = () =>
    db.selectFrom('users').select(['id', 'email', 'emailVerified', 'displayName', 'role', 'disabled', 'createdAt'])

  type Row = Awaited<ReturnType<ReturnType<typeof rowsQuery>['execute']>>[number]

  /** The rows completed: their groups, their last sign-in, the features' facts. */
  const listed = async (rows: readonly Row[]): Promise<ListedUser[]> => {
    const ids = rows.map(({ id }) => id)
    const [groups, signIns, known] = await Promise.all([groupNamesOf(db, ids), lastSignInsOf(db, ids), facts(ids)])
    return rows.map((row) => {
      const { twoStep, passkeys } = known.get(row.id) ?? { twoStep: false, passkeys: 0 }
      return {
        userId: row.id,
        email: row.email,
        emailVerified: row.emailVerified === 1,
        displayName: row.displayName,
        role: isRole(row.role) ? row.role : 'member',
        disabled: row.disabled !== 0,
        createdAt: row.createdAt,
        lastSignInAt: signIns.get(row.id) ?? null,
        twoStep,
        passkeys,
        groups: groups.get(row.id) ?? []
      }
    })
  }

  return {
    /** A page of accounts, newest first, after `cursor`; those matching `query` when given. */
    async page({ query, limit, cursor }: UsersQuery): Promise<UsersPage> {
      const after = cursor === undefined ? undefined : decodeKeysetCursor(cursor, isUuid)
      let select = rowsQuery()
      const search = query?.trim()
      if (search) {
        const pattern = containsPattern(search)
        // Addresses are stored in lower case; names as typed. `\` escapes in both dialects' LIKE.
        select = select.where((eb) =>
          eb.or([sql<boolean>`${eb.ref('email')} like ${pattern} escape '\\'`, sql<boolean>`lower(${eb.ref('displayName')}) like ${pattern} escape '\\'`])
        )
      }
      if (after) select = select.where((eb) => eb(eb.refTuple('createdAt', 'id'), '<', eb.tuple(after.createdAt, after.id)))
      const rows = await select.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit + 1).execute()
      const shown = rows.slice(0, limit)
      const hasMore = rows.length > limit
      const last = shown.at(-1)
      return { users: await listed(shown), hasMore, nextCursor: hasMore && last ? encodeKeysetCursor({ createdAt: last.createdAt, id: last.id }) : null }
    },

    /** One account as listed; undefined when there is none. */
    async find(userId: string): Promise<ListedUser | undefined> {
      const rows = await rowsQuery().where('id', '=', userId).execute()
      return (await listed(rows))[0]
    }
  }
}

export type UserDirectory = ReturnType<typeof createUserDirectory>

/**
 * Each account's newest `signin` audit event: the trail records every completed sign-in (any
 * method), and keeps it for the retention the person chose, so the console shows no more than the
 * person's own activity page does. Sessions would not do: signing out deletes them.
 */
async function lastSignInsOf(db: Kysely<Database>, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('auditEvents')
    .select(['userId', (eb) => eb.fn.max('createdAt').as('at')])
    .where('userId', 'in', userIds)
    .where('type', '=', 'signin')
    .groupBy('userId')
    .execute()
  return new Map(rows.map(({ userId, at }) => [userId, String(at)]))
}
