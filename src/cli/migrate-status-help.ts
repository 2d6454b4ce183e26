// The migrate:status command's usage and help, apart from migrate-status.ts so that `--help` and
// the dispatch (hub-commands.ts) load none of the code that runs it.

export const MIGRATE_STATUS_USAGE = `migrate:status lists every migration of this version, applied (with when) or pending, any the
database holds that this version does not know (a newer version applied them: this one will not
start), and the Hearth version that last migrated the database. It changes nothing: the hub and
the task manager apply pending migrations when they start (docs/upgrading.md).`

export const MIGRATE_STATUS_HELP = `Usage: npm run hub -- migrate:status

${MIGRATE_STATUS_USAGE}

It takes no options.`
