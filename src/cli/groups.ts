import type { Kysely } from 'kysely'
import { GROUP_REFUSALS, type GroupActor, createGroups } from '../hub/features/groups/service.js'
import { normaliseEmail } from '../hub/kernel/accounts/credentials.js'
import { groupsNamed } from '../hub/kernel/accounts/groups.js'
import { createAuditTrail } from '../hub/kernel/audit/repository.js'
import type { Config } from '../shared/config.js'
import type { Database } from '../shared/database/schema.js'
import { HttpError, notFound } from '../shared/errors.js'
import { withDatabase } from './database.js'
import { escapeForTerminal } from './terminal-text.js'
import type { GROUPS_HELP } from './groups-help.js'

export type GroupsCommand = keyof typeof GROUPS_HELP

type Io = { out: (line: string) => void; err: (line: string) => void }

/**
 * `groups:*`: the console's and the admin API's groups, from the terminal, through the same
 * functions (src/hub/features/groups/service.ts). No administrator makes the change: the members'
 * activity pages say what happened, naming nobody.
 */
export async function groupsCommand(
  command: GroupsCommand,
  config: Config,
  values: { name?: string | undefined; description?: string | undefined; group?: string | undefined; email?: string | undefined },
  io: Io
): Promise<number> {
  try {
    switch (command) {
      case 'groups:list':
        return await listGroups(config, io)
      case 'groups:add': {
        if (values.name === undefined) return usage(io, 'groups:add needs --name')
        const { name, description } = values
        const group = await withDatabase(config.shared, (db) => createGroups(db, () => new Date()).create({ name, description }, terminal(db)))
        io.out(escapeForTerminal(`Made the group ${group.name} (${group.id}).`))
        return 0
      }
      default: {
        if (values.group === undefined || values.email === undefined) return usage(io, `${command} needs --group and --email`)
        const { group: groupName, email } = values
        const adding = command === 'groups:members:add'
        const name = await withDatabase(config.shared, async (db) => {
          const groups = createGroups(db, () => new Date())
          const group = await groupNamed(db, groupName)
          if (adding) {
            await groups.addMemberByEmail(group.id, email, terminal(db))
          } else {
            const account = await db.selectFrom('users').select('id').where('email', '=', normaliseEmail(email)).executeTakeFirst()
            if (!account) throw notFound(GROUP_REFUSALS.noAccountWithEmail)
            await groups.removeMember(group.id, account.id, terminal(db))
          }
          return group.name
        })
        io.out(escapeForTerminal(adding ? `${normaliseEmail(email)} is in ${name}.` : `${normaliseEmail(email)} is not in ${name}.`))
        return 0
      }
    }
  } catch (error) {
    if (error instanceof HttpError) {
      io.err(escapeForTerminal(error.message))
      return 1
    }
    throw error
  }
}

function usage(io: Io, message: string): number {
  io.err(message)
  return 2
}

/** The terminal as the one making a change: recorded on the touched people's trails, naming no administrator. */
function terminal(db: Kysely<Database>): GroupActor {
  const trail = createAuditTrail(db)
  return { record: (event) => trail.record(event) }
}

async function groupNamed(db: Kysely<Database>, name: string): Promise<{ id: string; name: string }> {
  const { groups } = await groupsNamed(db, [name])
  const [group] = groups
  if (!group) throw notFound(`No group is named ${JSON.stringify(name)}`)
  return group
}

async function listGroups(config: Config, io: Io): Promise<number> {
  const groups = await withDatabase(config.shared, (db) => createGroups(db, () => new Date()).list())
  if (groups.length === 0) {
    io.out('No group yet.')
    return 0
  }
  for (const group of groups) {
    const members = `${group.members} member${group.members === 1 ? '' : 's'}`
    io.out(escapeForTerminal(`${group.name}  ${members}${group.description === '' ? '' : `  "${group.description}"`}`))
  }
  return 0
}
