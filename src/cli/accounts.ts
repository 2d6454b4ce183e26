import type { ACCOUNT_HELP } from './accounts-help.js'
import { withDatabase } from './database.js'
import type { CliIo } from './hub-commands.js'
import { createSecurityEventOutbox } from '../hub/kernel/security-events/outbox.js'
import { createUsersRepository } from '../hub/kernel/accounts/repository.js'
import { createAccounts } from '../hub/kernel/accounts/accounts.js'
import { setAccountDisabled } from '../hub/kernel/accounts/account-status.js'
import type { Role } from '../hub/kernel/accounts/roles.js'
import { changeRole } from '../hub/features/users/administration.js'
import type { Config } from '../shared/config.js'
import { HttpError } from '../shared/errors.js'

export type AccountCommand = keyof typeof ACCOUNT_HELP

/**
 * The users:* commands: each names an account by --email, and accounts live in the hub only with
 * the built-in provider. A refusal of the hub's rules (the sign-up rules, the last administrator)
 * is printed and exits 1.
 */
export async function accountCommand(command: AccountCommand, config: Config, email: string | undefined, admin: boolean, io: CliIo): Promise<number> {
  if (!email) {
    io.err(`${command} needs --email`)
    return 2
  }
  if (config.hub.identityProvider.kind !== 'builtin') {
    io.err('HUB_IDP is oidc: accounts live at the external identity provider, not in the hub')
    return 1
  }
  try {
    if (command === 'users:create') return await createUser(config, email, admin, io)
    // Erasure reaches every feature and Stripe: only users:delete loads it.
    if (command === 'users:delete') return await (await import('./account-deletion.js')).deleteUser(config, email, io)
    if (command === 'users:promote' || command === 'users:demote') return await changeUserRole(config, command === 'users:promote' ? 'admin' : 'member', email, io)
    return await changeAccountStatus(config, command === 'users:disable', email, io)
  } catch (error) {
    if (error instanceof HttpError) {
      io.err(error.message)
      return 1
    }
    throw error
  }
}

async function createUser(config: Config, email: string, admin: boolean, io: CliIo): Promise<number> {
  // One trailing newline is what `echo` or a typed line adds; it is not part of the password.
  const password = (await io.readStdin()).replace(/\r?\n$/, '')
  const { userId, email: stored } = await withDatabase(config.shared, async (db) => {
    const now = new Date()
    const created = await createAccounts(createUsersRepository(db)).create({ email, password }, now)
    if (admin) await changeRole(db, { userId: created.userId }, 'admin', now)
    return created
  })
  io.out(`Created ${admin ? 'administrator ' : ''}${stored} with id ${userId}.`)
  return 0
}

async function changeUserRole(config: Config, role: Role, email: string, io: CliIo): Promise<number> {
  const changed = await withDatabase(config.shared, (db) => changeRole(db, email, role, new Date()))
  if (!changed) {
    io.err('No account has this email')
    return 1
  }
  const what = role === 'admin' ? 'an administrator' : 'a member'
  io.out(changed.changed ? `${changed.email} is now ${what}.` : `${changed.email} is already ${what}.`)
  return 0
}

async function changeAccountStatus(config: Config, disable: boolean, email: string, io: CliIo): Promise<number> {
  const changed = await withDatabase(config.shared, (db) =>
    setAccountDisabled(db, email, disable, new Date(), createSecurityEventOutbox(db, Object.keys(config.hub.appEvents)))
  )
  if (!changed) {
    io.err('No account has this email')
    return 1
  }
  const sessions = `${changed.endedSessions} session${changed.endedSessions === 1 ? '' : 's'}`
  io.out(disable ? `Disabled ${changed.email} and ended ${sessions}.` : `Enabled ${changed.email}.`)
  return 0
}
