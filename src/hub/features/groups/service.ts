import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { badRequest, notFound } from '../../../shared/errors.js'
import type { Database } from '../../../shared/database/schema.js'
import { isUniqueViolation } from '../../../shared/database/unique-violation.js'
import { normaliseEmail } from '../../kernel/accounts/credentials.js'
import { groupNameKey } from '../../kernel/accounts/groups.js'
import type { AuditEventInput } from '../../kernel/audit/events.js'
import { conflict } from '../../kernel/http/http-errors.js'

/**
 * The groups an administrator makes and the people in them (docs/administration.md, "Groups"):
 * the rules the admin API, the console and the terminal share.
 */

export const GROUP_NAME_MAX_LENGTH = 64
export const GROUP_DESCRIPTION_MAX_LENGTH = 200

/**
 * A name applications will read in the `groups` claim (issue 30) and the terminal takes in a
 * comma-separated list: letters and digits of any script, spaces, dots, hyphens and underscores,
 * beginning and ending with a letter or digit, no two spaces in a row.
 */
const GROUP_NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M} ._-]*[\p{L}\p{N}\p{M}])?$/u
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u

export const GROUP_REFUSALS = {
  nameMissing: 'Group name is required',
  nameTooLong: `Group name must be at most ${GROUP_NAME_MAX_LENGTH} characters`,
  nameCharacters: 'Group name may hold letters, digits, single spaces, dots, hyphens and underscores, and must begin and end with a letter or digit',
  nameTaken: 'A group with this name already exists',
  descriptionTooLong: `Group description must be at most ${GROUP_DESCRIPTION_MAX_LENGTH} characters`,
  descriptionCharacters: 'Group description must not contain control or invisible characters',
  noGroup: 'No group has this id',
  noAccount: 'No account has this id',
  noAccountWithEmail: 'No account has this email'
} as const

export type GroupRefusal = keyof typeof GROUP_REFUSALS

/** The name as stored (NFC, trimmed), or throws why it cannot be a group's. */
export function checkedGroupName(name: string): string {
  const trimmed = name.normalize('NFC').trim()
  if (trimmed.length === 0) throw badRequest(GROUP_REFUSALS.nameMissing)
  if ([...trimmed].length > GROUP_NAME_MAX_LENGTH) throw badRequest(GROUP_REFUSALS.nameTooLong)
  if (!GROUP_NAME.test(trimmed) || trimmed.includes('  ')) throw badRequest(GROUP_REFUSALS.nameCharacters)
  return trimmed
}

function checkedDescription(description: string): string {
  const trimmed = description.normalize('NFC').trim()
  if ([...trimmed].length > GROUP_DESCRIPTION_MAX_LENGTH) throw badRequest(GROUP_REFUSALS.descriptionTooLong)
  if (INVISIBLE_OR_CONTROL.test(trimmed)) throw badRequest(GROUP_REFUSALS.descriptionCharacters)
  return trimmed
}

export interface GroupSummary {
  id: string
  name: string
  description: string
  /** How many accounts are in it. */
  members: number
  createdAt: string
  updatedAt: string
}

export interface GroupMember {
  userId: string
  email: string
  displayName: string | null
  addedAt: string
}

export interface GroupDetail extends GroupSummary {
  accounts: GroupMember[]
}

/**
 * Who makes a change: the administrator, whose id the touched people's trails name, and how events
 * are recorded. From the terminal (`groups:*`) there is no administrator: the members' trails
 * still say what happened, naming nobody (as `users:promote` does), and no one's own trail records
 * the group's making or change.
 */
export interface GroupActor {
  userId?: string | undefined
  record: (event: AuditEventInput) => Promise<void>
}

/** The actor's own trail, when there is an administrator. */
const recordOwn = async (actor: GroupActor, event: Omit<AuditEventInput, 'userId'>) => {
  if (actor.userId !== undefined) await actor.record({ ...event, userId: actor.userId })
}
/** `detail.by`: the administrator, absent from the terminal. */
const byOf = (actor: GroupActor) => (actor.userId === undefined ? {} : { by: actor.userId })

export function createGroups(db: Kysely<Database>, now: () => Date) {
  const summaries = (ids?: readonly string[]) =>
    db
      .selectFrom('groups')
      .leftJoin('groupMembers', 'groupMembers.groupId', 'groups.id')
      .select(['groups.id', 'groups.name', 'groups.description', 'groups.createdAt', 'groups.updatedAt', (eb) => eb.fn.count<number | string>('groupMembers.userId').as('members')])
      .$if(ids !== undefined, (query) => query.where('groups.id', 'in', ids ?? []))
      .groupBy(['groups.id', 'groups.name', 'groups.nameKey', 'groups.description', 'groups.createdAt', 'groups.updatedAt'])
      .orderBy('groups.nameKey')
      .execute()
      .then((rows) => rows.map((row) => ({ ...row, members: Number(row.members) })))

  const summaryOf = async (id: string): Promise<GroupSummary> => {
    const [group] = await summaries([id])
    if (!group) throw notFound(GROUP_REFUSALS.noGroup)
    return group
  }

  const membersOf = (groupId: string) =>
    db.selectFrom('groupMembers').innerJoin('users', 'users.id', 'groupMembers.userId').select(['users.id as userId', 'users.email', 'users.displayName', 'groupMembers.addedAt']).where('groupMembers.groupId', '=', groupId)

  /** Stored, or the 409 of a name another group has (the unique key decides, so two racing changes cannot both win). */
  const storing = async (work: () => Promise<unknown>): Promise<void> => {
    try {
      await work()
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(GROUP_REFUSALS.nameTaken)
      throw error
    }
  }

  return {
    /** Every group, by name. */
    list: (): Promise<GroupSummary[]> => summaries(),

    /** One group and its members, by address; undefined when there is none. */
    async find(id: string): Promise<GroupDetail | undefined> {
      const [group] = await summaries([id])
      if (!group) return undefined
      const accounts = await membersOf(id).orderBy('users.email').execute()
      return { ...group, accounts }
    },

    async create(input: { name: string; description?: string | undefined }, actor: GroupActor): Promise<GroupSummary> {
      const name = checkedGroupName(input.name)
      const description = checkedDescription(input.description ?? '')
      const at = now().toISOString()
      const id = randomUUID()
      await storing(() => db.insertInto('groups').values({ id, name, nameKey: groupNameKey(name), description, createdAt: at, updatedAt: at }).execute())
      await recordOwn(actor, { type: 'group.created', detail: { groupId: id, group: name } })
      return { id, name, description, members: 0, createdAt: at, updatedAt: at }
    },

    /** Renames or describes it; the members' applications read the new name from their next token. */
    async update(id: string, input: { name?: string | undefined; description?: string | undefined }, actor: GroupActor): Promise<GroupSummary> {
      const before = await summaryOf(id)
      const name = input.name === undefined ? before.name : checkedGroupName(input.name)
      const description = input.description === undefined ? before.description : checkedDescription(input.description)
      if (name === before.name && description === before.description) return before
      await storing(() => db.updateTable('groups').set({ name, nameKey: groupNameKey(name), description, updatedAt: now().toISOString() }).where('id', '=', id).execute())
      await recordOwn(actor, { type: 'group.updated', detail: { groupId: id, group: name, ...(name === before.name ? {} : { formerName: before.name }) } })
      return summaryOf(id)
    },

    /** Deletes it; each member's trail says they left it. */
    async remove(id: string, actor: GroupActor): Promise<void> {
      const group = await summaryOf(id)
      const members = await membersOf(id).execute()
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('groupMembers').where('groupId', '=', id).execute()
        await trx.deleteFrom('groups').where('id', '=', id).execute()
      })
      for (const member of members) await actor.record({ userId: member.userId, type: 'group.left', detail: { groupId: id, group: group.name, ...byOf(actor), groupDeleted: true } })
      await recordOwn(actor, { type: 'group.deleted', detail: { groupId: id, group: group.name, members: members.length } })
    },

    /** Puts the account in the group; already in it, nothing changes (and nothing is recorded). */
    async addMember(id: string, userId: string, actor: GroupActor): Promise<void> {
      const group = await summaryOf(id)
      const account = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
      if (!account) throw notFound(GROUP_REFUSALS.noAccount)
      const added = await db
        .insertInto('groupMembers')
        .values({ groupId: id, userId, addedAt: now().toISOString() })
        .onConflict((onConflict) => onConflict.columns(['groupId', 'userId']).doNothing())
        .executeTakeFirst()
      if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return
      await actor.record({ userId, type: 'group.joined', detail: { groupId: id, group: group.name, ...byOf(actor) } })
    },

    /** As `addMember`, the account named by its address (the console's form). */
    async addMemberByEmail(id: string, email: string, actor: GroupActor): Promise<void> {
      await summaryOf(id)
      const account = await db.selectFrom('users').select('id').where('email', '=', normaliseEmail(email)).executeTakeFirst()
      if (!account) throw notFound(GROUP_REFUSALS.noAccountWithEmail)
      await this.addMember(id, account.id, actor)
    },

    /** Takes the account out of the group; not in it, nothing changes. */
    async removeMember(id: string, userId: string, actor: GroupActor): Promise<void> {
      const group = await summaryOf(id)
      const removed = await db.deleteFrom('groupMembers').where('groupId', '=', id).where('userId', '=', userId).executeTakeFirst()
      if (Number(removed.numDeletedRows) === 0) return
      await actor.record({ userId, type: 'group.left', detail: { groupId: id, group: group.name, ...byOf(actor) } })
    }
  }
}

export type Groups = ReturnType<typeof createGroups>
