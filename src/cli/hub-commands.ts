import { type ParseArgsConfig, parseArgs } from 'node:util'
import { ACCOUNT_HELP, KEYS_HELP } from './accounts-help.js'
import { BACKUP_HELP, BACKUP_OPTIONS, BACKUP_USAGE } from './backup-help.js'
import { BILLING_HELP, BILLING_OPTIONS, BILLING_USAGE } from './billing-help.js'
import { CSP_TOP_HELP, CSP_TOP_USAGE } from './csp-top-help.js'
import { GROUPS_HELP, GROUPS_OPTIONS, GROUPS_USAGE } from './groups-help.js'
import { INVITATIONS_HELP, INVITATIONS_OPTIONS, INVITATIONS_USAGE } from './invitations-help.js'
import { EVENTS_PENDING_HELP, EVENTS_PENDING_USAGE } from './security-events-pending-help.js'
import { MAIL_OUTBOX_HELP, MAIL_OUTBOX_USAGE } from './mail-outbox-help.js'
import { MAIL_QUEUE_HELP, MAIL_QUEUE_USAGE } from './mail-queue-help.js'
import { MIGRATE_STATUS_HELP, MIGRATE_STATUS_USAGE } from './migrate-status-help.js'
import { CLIENTS_HELP, CLIENTS_OPTIONS, CLIENTS_USAGE } from './oidc-clients-help.js'
import { type Config, ConfigError, type Env, readConfig } from '../shared/config.js'
import { NewerSchemaError } from '../shared/database/newer-schema-error.js'

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
  npm run hub -- migrate:status                 lists the migrations, applied or pending, and the version that ran them
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

${BILLING_USAGE}

${MIGRATE_STATUS_USAGE}`

const OPTIONS = {
  email: { type: 'string' },
  admin: { type: 'boolean' },
  to: { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ...CLIENTS_OPTIONS,
  ...BILLING_OPTIONS,
  ...INVITATIONS_OPTIONS,
  ...GROUPS_OPTIONS,
  ...BACKUP_OPTIONS
} as const satisfies ParseArgsConfig['options']

/** The command line as parsed: every command's options, each command reading its own. */
export type CommandValues = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

export interface CliIo {
  env: Env
  readStdin: () => Promise<string>
  out: (line: string) => void
  err: (line: string) => void
}

interface HubCommands {
  help: Readonly<Record<string, string>>
  run: (command: string, config: Config, values: CommandValues, io: CliIo) => Promise<number>
}

/** The commands named by `help`'s keys, each run by `run`. */
function commands<Name extends string>(help: Readonly<Record<Name, string>>, run: (command: Name, config: Config, values: CommandValues, io: CliIo) => Promise<number>): HubCommands {
  return { help, run: (command, config, values, io) => run(command as Name, config, values, io) }
}

/**
 * Every command, with its help. The module that runs a command is imported when it runs, not
 * before: importing them all (oidc-provider, stripe, mailparser, most of the hub through them)
 * made every command, `--help` too, wait for code it never ran (docs/operations.md). A new
 * command: its help (and options) in a light `*-help.ts`, one entry here, its line in USAGE.
 */
const COMMANDS: readonly HubCommands[] = [
  commands(ACCOUNT_HELP, async (command, config, values, io) => (await import('./accounts.js')).accountCommand(command, config, values.email, values.admin ?? false, io)),
  commands(KEYS_HELP, async (_command, config, _values, io) => (await import('./keys.js')).rotateKeys(config, io)),
  commands({ 'csp:top': CSP_TOP_HELP }, async (_command, config, values, io) => (await import('./csp-top.js')).cspTop(config, values.limit, io)),
  commands({ 'events:pending': EVENTS_PENDING_HELP }, async (_command, config, _values, io) => (await import('./security-events-pending.js')).eventsPending(config, io)),
  commands(CLIENTS_HELP, async (command, config, values, io) => {
    const { clientsCommand, clientOptionsOf } = await import('./oidc-clients.js')
    return clientsCommand(command, config, clientOptionsOf(values), io)
  }),
  commands({ 'mail:outbox': MAIL_OUTBOX_HELP }, async (_command, config, values, io) => (await import('./mail-outbox.js')).mailOutbox(config, { to: values.to, limit: values.limit }, io)),
  commands({ 'mail:queue': MAIL_QUEUE_HELP }, async (_command, config, values, io) => (await import('./mail-queue.js')).mailQueueCommand(config, values.limit, io)),
  commands(BILLING_HELP, async (command, config, values, io) => (await import('./billing.js')).billingCommand(command, config, values, io)),
  commands(INVITATIONS_HELP, async (_command, config, values, io) => (await import('./invitations.js')).invitationsCommand(config, values, io)),
  commands(GROUPS_HELP, async (command, config, values, io) => (await import('./groups.js')).groupsCommand(command, config, values, io)),
  commands(BACKUP_HELP, async (command, config, values, io) => (await import('./backup.js')).backupCommand(command, config, values, io)),
  commands({ 'migrate:status': MIGRATE_STATUS_HELP }, async (_command, config, _values, io) => (await import('./migrate-status.js')).migrateStatus(config, io))
]

/** What `npm run hub -- COMMAND --help` prints, for every command there is. */
export const COMMAND_HELP: Readonly<Record<string, string>> = Object.assign({}, ...COMMANDS.map(({ help }) => help))

/** Runs one hub command; resolves to the process exit code. */
export async function runHubCli(args: string[], io: CliIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS })
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const [command] = parsed.positionals
  if (parsed.values.help) return help(command, io)
  const found = command === undefined ? undefined : COMMANDS.find(({ help }) => Object.hasOwn(help, command))
  if (command === undefined || found === undefined) {
    io.err(command ? `Unknown command: ${command}\n\n${USAGE}` : USAGE)
    return 2
  }
  try {
    return await found.run(command, readConfig(io.env), parsed.values, io)
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`Invalid configuration: ${error.message}`)
      return 1
    }
    if (error instanceof NewerSchemaError) {
      io.err(error.message)
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
