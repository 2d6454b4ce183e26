import type { Kysely } from 'kysely'
import { type Param, type PreparedQuery, prepareQuery } from '../../../shared/database/prepared-query.js'
import type { Database } from '../../../shared/database/schema.js'

/**
 * The groups an administrator puts people in (docs/administration.md), as every part of the hub
 * reads them: the console lists them beside each account, an invitation's groups apply when it is
 * used, and applications read their names (issue 30).
 */

/** The names of each account's groups, by user id, each list sorted; an account in none is absent. */
export async function groupNamesOf(db: Kysely<Database>, userIds: readonly string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>()
  if (userIds.length === 0) return names
  const rows = await db
    .selectFrom('groupMembers')
    .innerJoin('groups', 'groups.id', 'groupMembers.groupId')
    .select(['groupMembers.userId', 'groups.name'])
    .where('groupMembers.userId', 'in', userIds)
    .orderBy('groups.nameKey')
    .execute()
  for (const { userId, name } of rows) names.set(userId, [...(names.get(userId) ?? []), name])
  return names
}

/** Puts the account in the groups that still exist of `groupIds`; already a member stays one. */
export async function joinGroups(db: Kysely<Database>, userId: string, groupIds: readonly string[], now: Date): Promise<void> {
  if (groupIds.length === 0) return
  const existing = await db.selectFrom('groups').select('id').where('id', 'in', groupIds).execute()
  if (existing.length === 0) return
  await db
    .insertInto('groupMembers')
    .values(existing.map(({ id }) => ({ groupId: id, userId, addedAt: now.toISOString() })))
    .onConflict((conflict) => conflict.columns(['groupId', 'userId']).doNothing())
    .execute()
}

/** How names are compared and kept unique: NFC, trimmed, lower case (`groups.nameKey`). */
export function groupNameKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase().normalize('NFC')
}

/**
 * The groups of these names, compared as `groupNameKey` does, in the order given (one named twice
 * once); `unknown` lists the names no group has. An invitation names its groups so, as the
 * terminal and applications do (issue 30).
 */
export async function groupsNamed(db: Kysely<Database>, names: readonly string[]): Promise<{ groups: { id: string; name: string }[]; unknown: string[] }> {
  const keys = [...new Set(names.map(groupNameKey))]
  if (keys.length === 0) return { groups: [], unknown: [] }
  const rows = await db.selectFrom('groups').select(['id', 'name', 'nameKey']).where('nameKey', 'in', keys).execute()
  const byKey = new Map(rows.map((row) => [row.nameKey, { id: row.id, name: row.name }]))
  const groups = keys.flatMap((key) => byKey.get(key) ?? [])
  const unknown = names.filter((name) => !byKey.has(groupNameKey(name)))
  return { groups, unknown }
}

/** The names of the groups of these ids that still exist, sorted. */
export async function groupNamesById(db: Kysely<Database>, groupIds: readonly string[]): Promise<string[]> {
  if (groupIds.length === 0) return []
  const rows = await db.selectFrom('groups').select('name').where('id', 'in', groupIds).orderBy('nameKey').execute()
  return rows.map((row) => row.name)
}

/** The groups of these ids that still exist, `{ id, name }`, sorted by name; all of them when `groupIds` is omitted. */
export async function groupsById(db: Kysely<Database>, groupIds?: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (groupIds?.length === 0) return []
  return db
    .selectFrom('groups')
    .select(['id', 'name'])
    .$if(groupIds !== undefined, (query) => query.where('id', 'in', groupIds ?? []))
    .orderBy('nameKey')
    .execute()
}

/** Whether the account is in at least one of the groups of these ids (a deleted group has no members). */
export async function isInAnyGroup(db: Kysely<Database>, userId: string, groupIds: readonly string[]): Promise<boolean> {
  if (groupIds.length === 0) return false
  const row = await db.selectFrom('groupMembers').select('groupId').where('userId', '=', userId).where('groupId', 'in', groupIds).limit(1).executeTakeFirst()
  return row !== undefined
}

const groupsOfQueries = new WeakMap<Kysely<Database>, PreparedQuery<{ userId: string }, { id: string; name: string }>>()

/**
 * The groups an account is in, by name: the `groups` claim and a group's plan (docs/billing.md)
 * read it as every SSO token is made, so it is prepared once per database handle.
 */
export async function groupsOf(db: Kysely<Database>, userId: string): Promise<{ id: string; name: string }[]> {
  let query = groupsOfQueries.get(db)
  if (!query) {
    query = prepareQuery(db, (param: Param<{ userId: string }>) =>
      db
        .selectFrom('groupMembers')
        .innerJoin('groups', 'groups.id', 'groupMembers.groupId')
        .select(['groups.id', 'groups.name'])
        .where('groupMembers.userId', '=', param('userId'))
        .orderBy('groups.nameKey')
    )
    groupsOfQueries.set(db, query)
  }
  return query.all({ userId })
}

/** The user ids of a group's members: whose trail a change to the whole group is recorded on. */
export async function memberIdsOf(db: Kysely<Database>, groupId: string): Promise<string[]> {
  const rows = await db.selectFrom('groupMembers').select('userId').where('groupId', '=', groupId).orderBy('userId').execute()
  return rows.map((row) => row.userId)
}

/** One group by id, if it exists. */
export async function groupById(db: Kysely<Database>, groupId: string): Promise<{ id: string; name: string } | undefined> {
  return (await groupsById(db, [groupId]))[0]
}
