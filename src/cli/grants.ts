import { parseArgs } from 'node:util'
import { PERMISSIONS, type Permission, isPermission } from '../shared/access-grants/grant.js'
import { createGrantsRepository } from '../shared/access-grants/repository.js'
import { NewerSchemaError } from '../shared/database/newer-schema-error.js'
import { readConfigOrExit } from '../shared/runtime.js'
import { withDatabase } from './database.js'

const USAGE = `Manage access grants (the same database as the services: DATABASE_URL or DATA_DIR).

Usage:
  npm run grants -- list [--user ID] [--app ID]
  npm run grants -- grant --user ID [--app ID] [--permissions read,write,delete] [--roles member]
  npm run grants -- revoke --user ID [--app ID]

--app defaults to TASKS_APP_ID (tasks). "grant" replaces the user's grant for that application.
A revoked user who calls the application again receives the default grant (the spec's access
check); to restrict a user, grant fewer permissions and set PERMISSIONS_ENABLED=true.
\`npm run grants -- COMMAND --help\` prints that command's usage and options.`

const APP_OPTION = '  --app ID            the application (default: TASKS_APP_ID, tasks)'

/** Each command's own help, as `npm run grants -- COMMAND --help` prints it. */
const COMMAND_HELP: Readonly<Record<string, string>> = {
  list: `Usage: npm run grants -- list [--user ID] [--app ID]

Lists the grants, one a line: user, application, roles, permissions, who granted it and when.

Options:
  --user ID           only this user's grants
  --app ID            only this application's grants (default: every application)`,
  grant: `Usage: npm run grants -- grant --user ID [--app ID] [--permissions read,write,delete] [--roles member]

Gives a user a grant on an application, replacing the one they had there. Permissions are only
enforced with PERMISSIONS_ENABLED=true.

Options:
  --user ID           the user's id
${APP_OPTION}
  --permissions LIST  comma list of ${PERMISSIONS.join(', ')} (default: all of them)
  --roles LIST        comma list of roles (default: member)`,
  revoke: `Usage: npm run grants -- revoke --user ID [--app ID]

Removes a user's grant on an application. A revoked user who calls the application again receives
the default grant (the spec's access check).

Options:
  --user ID           the user's id
${APP_OPTION}`
}

class UsageError extends Error {}

const { values, positionals } = parseCommandLine()

const command = positionals[0]
if (values.help && command) {
  const help = Object.hasOwn(COMMAND_HELP, command) ? COMMAND_HELP[command] : undefined
  if (help === undefined) {
    console.error(`Unknown command "${command}".\n\n${USAGE}`)
    process.exit(2)
  }
  console.log(help)
  process.exit(0)
}
if (values.help || !command) {
  console.log(USAGE)
  process.exit(values.help ? 0 : 2)
}

const config = readConfigOrExit()
const applicationId = values.app ?? config.tasks.appId
try {
  await withDatabase(config.shared, async (db) => {
    const grants = createGrantsRepository(db)
    switch (command) {
      case 'list': {
        const rows = await grants.list({ userId: values.user, applicationId: values.app })
        for (const grant of rows) {
          console.log([grant.userId, grant.applicationId, grant.roles.join(','), grant.permissions.join(','), grant.grantedBy, grant.createdAt].join('\t'))
        }
        if (rows.length === 0) console.error('No grants.')
        break
      }
      case 'grant': {
        const grant = await grants.upsert({
          userId: requireUser(),
          applicationId,
          roles: list(values.roles ?? 'member'),
          permissions: permissions(values.permissions ?? PERMISSIONS.join(',')),
          grantedBy: 'cli'
        })
        console.log(`Granted ${grant.permissions.join(',') || 'no permissions'} on ${grant.applicationId} to ${grant.userId}.`)
        break
      }
      case 'revoke': {
        const user = requireUser()
        const revoked = await grants.revoke(user, applicationId)
        console.log(revoked ? `Revoked the grant of ${user} on ${applicationId}.` : `${user} had no grant on ${applicationId}.`)
        break
      }
      default:
        throw new UsageError(`Unknown command "${command}".`)
    }
  })
} catch (error) {
  if (error instanceof NewerSchemaError) {
    console.error(error.message)
    process.exitCode = 1
  } else {
    if (!(error instanceof UsageError)) throw error
    console.error(`${error.message}\n\n${USAGE}`)
    process.exitCode = 2
  }
}

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        user: { type: 'string' },
        app: { type: 'string' },
        permissions: { type: 'string' },
        roles: { type: 'string' },
        help: { type: 'boolean', short: 'h' }
      }
    })
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    process.exit(2)
  }
}

function requireUser(): string {
  if (!values.user) throw new UsageError('--user is required.')
  return values.user
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
}

function permissions(value: string): Permission[] {
  const names = list(value)
  const unknown = names.filter((name) => !isPermission(name))
  if (unknown.length > 0) throw new UsageError(`Unknown permission: ${unknown.join(', ')} (known: ${PERMISSIONS.join(', ')}).`)
  return names as Permission[]
}
