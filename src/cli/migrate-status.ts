import type { Config } from '../shared/config.js'
import { LATEST_MIGRATION, type MigrationState, readMigrationStatus } from '../shared/database/migrate.js'
import { HEARTH_VERSION } from '../shared/release.js'
import { withUnmigratedDatabase } from './database.js'
import { escapeForTerminal } from './terminal-text.js'

/** `npm run hub -- migrate:status`; resolves to the exit code, 0 whatever the state. */
export async function migrateStatus(config: Config, io: { out: (line: string) => void }): Promise<number> {
  const status = await withUnmigratedDatabase(config.shared, (db) => readMigrationStatus(db))
  const unknown = [...status.applied.keys()].filter((name) => !status.known.includes(name)).sort()
  io.out(`This is Hearth ${HEARTH_VERSION} (schema ${LATEST_MIGRATION}). ${escapeForTerminal(lastMigratedBy(status))}`)
  for (const name of status.known) {
    const appliedAt = status.applied.get(name)
    io.out(escapeForTerminal(appliedAt === undefined ? `pending  ${''.padEnd(24)}  ${name}` : `applied  ${appliedAt.padEnd(24)}  ${name}`))
  }
  for (const name of unknown) io.out(escapeForTerminal(`unknown  ${(status.applied.get(name) ?? '').padEnd(24)}  ${name}`))
  const pending = status.known.length - (status.applied.size - unknown.length)
  const counts = [`${status.applied.size - unknown.length} applied`, `${pending} pending`, ...(unknown.length > 0 ? [`${unknown.length} unknown to this version: a newer one migrated the database`] : [])]
  io.out(`${counts.join(', ')}.${pending > 0 && unknown.length === 0 ? ' Starting the hub or the task manager applies them.' : ''}`)
  return 0
}

function lastMigratedBy({ applied, releases }: MigrationState): string {
  const last = releases.at(-1)
  if (last) return `The database was last migrated by Hearth ${last.version} (schema ${last.lastMigration}) at ${last.migratedAt}.`
  if (applied.size === 0) return 'The database has not been migrated yet.'
  return 'The database records no version: it was last migrated by a version from before they were recorded.'
}
