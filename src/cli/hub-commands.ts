import { parseArgs } from 'node:util'
import { BACKUP_HELP, BACKUP_OPTIONS, BACKUP_USAGE, backupCommand } from './backup.js'
import { BILLING_HELP, BILLING_OPTIONS, BILLING_USAGE, billingCommand } from './billing.js'
import { CSP_TOP_HELP, CSP_TOP_USAGE, cspTop } from './csp-top.js'
import { deleteUser } from './account-deletion.js'
import { withDatabase } from './database.js'
import { GROUPS_HELP, GROUPS_OPTIONS, GROUPS_USAGE, groupsCommand } from './groups.js'
import { INVITATIONS_HELP, INVITATIONS_OPTIONS, INVITATIONS_USAGE, invitationsCommand } from './invitations.js'
import { EVENTS_PENDING_HELP, EVENTS_PENDING_USAGE, eventsPending } from './security-events-pending.js'
import { createSecurityEventOutbox } from '../hub/kernel/security-events/outbox.js'
import { MAIL_OUTBOX_HELP, MAIL_OUTBOX_USAGE, mailOutbox } from './mail-outbox.js'
import { MAIL_QUEUE_HELP, MAIL_QUEUE_USAGE, mailQueueCommand } from './mail-queue.js'
import { CLIENTS_HELP, CLIENTS_USAGE, type ClientCommandOptions, clientsCommand } from './oidc-clients.js'
import { createUsersRepository } from '../hub/kernel/accounts/repository.js'
import { createAccounts } from '../hub/kernel/accounts/accounts.js'
import { setAccountDisabled } from '../hub/kernel/accounts/account-status.js'
import type { Role } from '../hub/kernel/accounts/roles.js'
import { changeRole } from '../hub/features/users/administration.js'
import { rotateSigningKeys } from '../hub/kernel/tokens/keyring.js'
import { type Config, ConfigError, type Env, readConfig } from '../shared/config.js'
import { HttpError } from '../shared/errors.js'

export const USAGE = `Administer the identity hub (same configuration as the hub: DATABASE_URL or DATA_DIR, HUB_*).

Usage:
  npm run hub -- users:create --email EMAIL [--admin]
                                                reads the password from stdin; --admin makes an administrator
  npm run hub -- users:promote --email EMAIL    makes the account an administrator
  npm run hub -- users:demote --email EMAIL     makes the administrator a member
  npm run hub -- users:disable --email EMAIL    blocks sign-in and ends the account's sessions
  npm run hub -- users:enable --email EMAIL     lets a disabled account sign in again
  npm run hub -- users:delete --email EMAIL     erases the account, as its owner deleting it would
${GROUPS_USAGE}
${INVITATIONS_USAGE}
  npm run hub -- keys:rotate                    adds a new SSO signing key in DATA_DIR
  npm run hub -- csp:top [--limit N]            lists the most frequent CSP violations
  npm run hub -- events:pending                 lists security events not yet delivered
  npm run hub -- clients:add --id ID --redirect-uri URL [--redirect-uri URL...] [--public] [--first-party]
                 [--name NAME] [--post-logout-redirect-uri URL...] [--backchannel-logout-uri URL] [--groups NAME,NAME]
                                                registers an OpenID Connect client (prints its secret once)
  npm run hub -- clients:list                   lists the registered OpenID Connect clients
  npm run hub -- clients:update --id ID [--name NAME] [--redirect-uri URL...] [--post-logout-redirect-uri URL...]
                 [--backchannel-logout-uri URL] [--first-party | --third-party] [--groups NAME,NAME]
                                                changes a client; what no option names stays
  npm run hub -- clients:rotate-secret --id ID  gives a confidential client a new secret (printed once)
  npm run hub -- clients:remove --id ID         removes a client, ending its grants and tokens
  npm run hub -- mail:outbox [--to EMAIL] [--limit N]
                                                prints the newest mails written to DATA_DIR/outbox
  npm run hub -- mail:queue [--limit N]         lists the mail not sent yet, waiting or given up
  npm run hub -- plans:add --id ID --name NAME [--price CENTS --currency EUR --interval month|year]
                 [--stripe-price PRICE_ID] --entitlements a,b,c
                                                adds or changes a billing plan
  npm run hub -- plans:list                     lists the plans
  npm run hub -- plans:remove --id ID           removes a plan no one is subscribed to
  npm run hub -- billing:set --email EMAIL --plan ID [--until DATE]
                                                sets an account's plan by hand
${BACKUP_USAGE}
  npm run hub -- --help
  npm run hub -- COMMAND --help                 that command's usage and options

users:create applies the sign-up rules (valid email, 8 to 128 characters, not a common password)
and works whatever HUB_SIGNUP says. Pipe the password in so it stays out of the shell
history:  printf '%s' "$PASSWORD" | npm run hub -- users:create --email ada@example.com

The last enabled administrator cannot be demoted, disabled or deleted: make another account an
administrator first (docs/administration.md).

users:disable takes effect at once for sign-in; a running hub stops accepting the account's
sessions within a few seconds (it trusts a session it has just read for up to 4 s). SSO tokens
already issued to applications stay valid until they expire (5 minutes).

keys:rotate makes the new key sign from now on; the old one stays published at
/.well-known/jwks.json until every token it signed has expired. A running hub picks it up
without a restart.

users:delete ends every session, erases what the hub holds about the person but one
account.deleted audit record (id and time), mails a confirmation to the address and sends the
applications an account-purged event (docs/account.md, "Deletion").

${EVENTS_PENDING_USAGE}

${CSP_TOP_USAGE}

${MAIL_OUTBOX_USAGE}

${MAIL_QUEUE_USAGE}

${CLIENTS_USAGE}

${BILLING_USAGE}`

/** Each account command's own help; `npm run hub -- COMMAND --help` prints the one of COMMAND. */
const ACCOUNT_HELP = {
  'users:create': `Usage: npm run hub -- users:create --email EMAIL [--admin]

Creates an account, reading its password from stdin. It applies the sign-up rules (valid email,
8 to 128 characters, not a common password) and works whatever HUB_SIGNUP says. Pipe the
password in so it stays out of the shell history:
  printf '%s' "$PASSWORD" | npm run hub -- users:create --email ada@example.com

Options:
  --email EMAIL   the account's address
  --admin         makes the account an administrator of the hub (docs/administration.md)`,
  'users:promote': `Usage: npm run hub -- users:promote --email EMAIL

Makes an existing account an administrator of the hub: it opens the console at /admin and the
admin API (docs/administration.md). Recorded on the account's activity.

Options:
  --email EMAIL   the account's address`,
  'users:demote': `Usage: npm run hub -- users:demote --email EMAIL

Makes an administrator a member again; it loses the console at once. The last enabled
administrator cannot be demoted: make another account an administrator first.

Options:
  --email EMAIL   the account's address`,
  'users:disable': `Usage: npm run hub -- users:disable --email EMAIL

Blocks sign-in and ends the account's sessions. A running hub stops accepting them within a few
seconds (it trusts a session it has just read for up to 4 s); SSO tokens already issued to
applications stay valid until they expire (5 minutes). The last enabled administrator cannot be
disabled.

Options:
  --email EMAIL   the account's address`,
  'users:enable': `Usage: npm run hub -- users:enable --email EMAIL

Lets a disabled account sign in again.

Options:
  --email EMAIL   the account's address`,
  'users:delete': `Usage: npm run hub -- users:delete --email EMAIL

Erases the account, as its owner deleting it would: ends every session, erases what the hub holds
about the person but one account.deleted audit record (id and time), mails a confirmation to the
address and sends the applications an account-purged event (docs/account.md, "Deletion"). The
last enabled administrator cannot be deleted.

Options:
  --email EMAIL   the account's address`,
  'keys:rotate': `Usage: npm run hub -- keys:rotate

Adds a new SSO signing key in DATA_DIR, which signs from now on; the old one stays published at
/.well-known/jwks.json until every token it signed has expired. A running hub picks it up without
a restart. It takes no options.`
} as const

/** What `npm run hub -- COMMAND --help` prints, for every command there is. */
export const COMMAND_HELP: Readonly<Record<string, string>> = {
  ...ACCOUNT_HELP,
  'csp:top': CSP_TOP_HELP,
  'events:pending': EVENTS_PENDING_HELP,
  ...CLIENTS_HELP,
  'mail:outbox': MAIL_OUTBOX_HELP,
  'mail:queue': MAIL_QUEUE_HELP,
  ...BILLING_HELP,
  ...INVITATIONS_HELP,
  ...GROUPS_HELP,
  ...BACKUP_HELP
}

export interface CliIo {
  env: Env
  readStdin: () => Promise<string>
  out: (line: string) => void
  err: (line: string) => void
}

/** Runs one hub command; resolves to the process exit code. */
export async function runHubCli(args: string[], io: CliIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { email: { type: 'string' }, admin: { type: 'boolean' }, to: { type: 'string' }, limit: { type: 'string' }, help: { type: 'boolean', short: 'h' }, ...CLIENT_OPTIONS, ...BILLING_OPTIONS, ...INVITATIONS_OPTIONS, ...GROUPS_OPTIONS, ...BACKUP_OPTIONS } })
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const [command] = parsed.positionals
  if (parsed.values.help) return help(command, io)
  try {
    const config = readConfig(io.env)
    switch (command) {
      case 'users:create':
      case 'users:promote':
      case 'users:demote':
      case 'users:disable':
      case 'users:enable':
      case 'users:delete':
        return await accountCommand(command, config, parsed.values.email, parsed.values.admin ?? false, io)
      case 'keys:rotate':
        return await rotateKeys(config, io)
      case 'events:pending':
        return await eventsPending(config, io)
      case 'csp:top':
        return await cspTop(config, parsed.values.limit, io)
      case 'clients:add':
      case 'clients:list':
      case 'clients:update':
      case 'clients:rotate-secret':
      case 'clients:remove':
        return await clientsCommand(command, config, clientOptionsOf(parsed.values), io)
      case 'plans:add':
      case 'plans:list':
      case 'plans:remove':
      case 'billing:set':
        return await billingCommand(command, config, parsed.values, io)
      case 'groups:add':
      case 'groups:list':
      case 'groups:members:add':
      case 'groups:members:remove':
        return await groupsCommand(command, config, parsed.values, io)
      case 'invitations:add':
        return await invitationsCommand(config, parsed.values, io)
      case 'mail:outbox':
        return await mailOutbox(config, { to: parsed.values.to, limit: parsed.values.limit }, io)
      case 'mail:queue':
        return await mailQueueCommand(config, parsed.values.limit, io)
      case 'backup':
      case 'restore':
        return await backupCommand(command, config, parsed.values, io)
      default:
        io.err(command ? `Unknown command: ${command}\n\n${USAGE}` : USAGE)
        return 2
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`Invalid configuration: ${error.message}`)
      return 1
    }
    throw error
  }
}

/** `--help`: the named command's own usage and options, or every command's when none is named. */
function help(command: string | undefined, io: CliIo): number {
  if (command === undefined) {
    io.out(USAGE)
    return 0
  }
  const text = Object.hasOwn(COMMAND_HELP, command) ? COMMAND_HELP[command] : undefined
  if (text === undefined) {
    io.err(`Unknown command: ${command}\n\n${USAGE}`)
    return 2
  }
  io.out(text)
  return 0
}

type AccountCommand = 'users:create' | 'users:promote' | 'users:demote' | 'users:disable' | 'users:enable' | 'users:delete'

/**
 * The users:* commands: each names an account by --email, and accounts live in the hub only with
 * the built-in provider. A refusal of the hub's rules (the sign-up rules, the last administrator)
 * is printed and exits 1.
 */
async function accountCommand(command: AccountCommand, config: Config, email: string | undefined, admin: boolean, io: CliIo): Promise<number> {
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
    if (command === 'users:delete') return await deleteUser(config, email, io)
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

async function rotateKeys(config: Config, io: CliIo): Promise<number> {
  if (config.hub.signingKey !== undefined) {
    io.err('HUB_SIGNING_KEY is set: keys come from the environment. Put the new key first in its JSON array, keeping the old one until its tokens have expired.')
    return 1
  }
  const kids = await rotateSigningKeys(config.shared.dataDir, new Date())
  io.out(`New signing keys ${kids.join(', ')} (EdDSA, RS256, ES256); the previous ones stay published until their tokens have expired.`)
  return 0
}

const CLIENT_OPTIONS = {
  id: { type: 'string' },
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'backchannel-logout-uri': { type: 'string' },
  public: { type: 'boolean' },
  'first-party': { type: 'boolean' },
  'third-party': { type: 'boolean' },
  'logo-url': { type: 'string' },
  'id-token-alg': { type: 'string' },
  pkce: { type: 'string' },
  'auth-method': { type: 'string' }
} as const

function clientOptionsOf(values: {
  id?: string
  name?: string
  'redirect-uri'?: string[]
  'post-logout-redirect-uri'?: string[]
  'backchannel-logout-uri'?: string
  public?: boolean
  'first-party'?: boolean
  'third-party'?: boolean
  groups?: string
  'logo-url'?: string
  'id-token-alg'?: string
  pkce?: string
  'auth-method'?: string
}): ClientCommandOptions {
  return {
    id: values.id,
    name: values.name,
    redirectUris: values['redirect-uri'],
    postLogoutRedirectUris: values['post-logout-redirect-uri'],
    backchannelLogoutUri: values['backchannel-logout-uri'],
    logoUrl: values['logo-url'],
    idTokenAlg: values['id-token-alg'],
    pkce: values.pkce,
    authMethod: values['auth-method'],
    public: values.public ?? false,
    firstParty: values['first-party'] ?? false,
    thirdParty: values['third-party'] ?? false,
    // Comma-separated names; "" (clients:update) lets everyone use the client again.
    allowedGroups: values.groups?.split(',').map((name) => name.trim()).filter((name) => name !== '')
  }
}
