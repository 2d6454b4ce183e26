import { setTimeout as sleep } from 'node:timers/promises'
import {
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  PostgresAdapter,
  SqliteAdapter,
  sql
} from 'kysely'
import * as tasks from './migrations/0001-tasks.js'
import * as accessGrants from './migrations/0002-access-grants.js'
import * as hubUsers from './migrations/0003-hub-users.js'
import * as hubSessions from './migrations/0004-hub-sessions.js'
import * as privacy from './migrations/0010-privacy.js'
import * as cspReports from './migrations/0020-csp-reports.js'
import * as usedIdTokens from './migrations/0030-used-id-tokens.js'
import * as sessionEmailVerified from './migrations/0031-session-email-verified.js'
import * as mailQueue from './migrations/0040-mail-queue.js'
import * as emailVerified from './migrations/0041-email-verified.js'
import * as profile from './migrations/0042-profile.js'
import * as securityEventOutbox from './migrations/0043-security-event-outbox.js'
import * as receivedSecurityEvents from './migrations/0044-received-security-events.js'
import * as sessionAuthenticatedAt from './migrations/0045-session-authenticated-at.js'
import * as totp from './migrations/0046-totp.js'
import * as loginChallenges from './migrations/0047-login-challenges.js'
import * as passkeys from './migrations/0048-passkeys.js'
import * as knownDevices from './migrations/0049-known-devices.js'
import * as oidcProviderRecords from './migrations/0050-oidc-provider-records.js'
import * as oidcClients from './migrations/0051-oidc-clients.js'
import * as oidcProviderHubSessions from './migrations/0052-oidc-provider-hub-sessions.js'
import * as tasksSessions from './migrations/0053-tasks-sessions.js'
import * as billing from './migrations/0054-billing.js'
import * as chosenLocale from './migrations/0055-chosen-locale.js'
import * as administration from './migrations/0056-administration.js'
import * as clientAllowedGroups from './migrations/0057-client-allowed-groups.js'
import * as clientSettings from './migrations/0058-client-settings.js'
import * as groupPlans from './migrations/0059-group-plans.js'
import * as passwordlessAccounts from './migrations/0060-passwordless-accounts.js'
import * as hearthReleases from './migrations/0061-hearth-releases.js'
import { HEARTH_VERSION } from '../release.js'
import { NewerSchemaError } from './newer-schema-error.js'

/** Listed in code rather than read from disk, so the build and the tests run the same set. */
const migrations: Record<string, Migration> = {
  '0001-tasks': tasks,
  '0002-access-grants': accessGrants,
  '0003-hub-users': hubUsers,
  '0004-hub-sessions': hubSessions,
  '0010-privacy': privacy,
  '0020-csp-reports': cspReports,
  '0030-used-id-tokens': usedIdTokens,
  '0031-session-email-verified': sessionEmailVerified,
  '0040-mail-queue': mailQueue,
  '0041-email-verified': emailVerified,
  '0042-profile': profile,
  '0043-security-event-outbox': securityEventOutbox,
  '0044-received-security-events': receivedSecurityEvents,
  '0045-session-authenticated-at': sessionAuthenticatedAt,
  '0046-totp': totp,
  '0047-login-challenges': loginChallenges,
  '0048-passkeys': passkeys,
  '0049-known-devices': knownDevices,
  '0050-oidc-provider-records': oidcProviderRecords,
  '0051-oidc-clients': oidcClients,
  '0052-oidc-provider-hub-sessions': oidcProviderHubSessions,
  '0053-tasks-sessions': tasksSessions,
  '0054-billing': billing,
  '0055-chosen-locale': chosenLocale,
  '0056-administration': administration,
  '0057-client-allowed-groups': clientAllowedGroups,
  '0058-client-settings': clientSettings,
  '0059-group-plans': groupPlans,
  '0060-passwordless-accounts': passwordlessAccounts,
  '0061-hearth-releases': hearthReleases
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

const MIGRATION_NAMES = Object.keys(migrations).sort()
/** The newest migration this build knows: the schema it leaves, named beside its version. */
export const LATEST_MIGRATION = MIGRATION_NAMES[MIGRATION_NAMES.length - 1] as string
/** The migration that creates `hearth_releases`: before it, a database records no version. */
const RELEASES_MIGRATION = '0061-hearth-releases'

/** A version that brought the database up to `lastMigration` (migration 0061). */
export interface ReleaseRecord {
  version: string
  lastMigration: string
  migratedAt: string
}

/** What the migration tables hold: the versions that migrated, and each applied migration with when. */
export interface MigrationState {
  /** Migration name to the time it was applied, ISO 8601, as Kysely writes it. */
  applied: ReadonlyMap<string, string>
  releases: readonly ReleaseRecord[]
}

/**
 * Brings the schema up to date and records this version as having done so. One read of the
 * migration tables decides: a migration this build does not know means a newer version migrated
 * the database, and it throws NewerSchemaError before writing anything; with every migration
 * applied (a restart) it is done, without the Migrator's locks and look-ups. Otherwise each
 * pending migration runs once even when instances start together: on PostgreSQL the Migrator
 * takes an advisory lock; on SQLite, which it does not lock, the whole run is one write
 * transaction (see `migrateHoldingWriteLock`). `version` is the one recorded: this build's, or
 * another a test stands for.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Migrator works on any schema
export async function migrateToLatest(db: Kysely<any>, version: string = HEARTH_VERSION): Promise<void> {
  const schema = await postgresSchemaOf(db)
  const state = await readMigrationState(db, schema)
  refuseUnknownMigrations(state, version)
  if (MIGRATION_NAMES.some((name) => !state.applied.has(name))) await migratePending(db, schema, version)
  if (!state.releases.some((release) => release.version === version && release.lastMigration === LATEST_MIGRATION)) {
    await recordRelease(db, schema, version)
  }
}

/** Every migration this build knows and any it does not, by name, with the state it read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read on any schema, as the Migrator works
export async function readMigrationStatus(db: Kysely<any>): Promise<MigrationState & { known: readonly string[] }> {
  return { ...(await readMigrationState(db, await postgresSchemaOf(db))), known: MIGRATION_NAMES }
}

async function migratePending(db: Kysely<unknown>, schema: string | undefined, version: string): Promise<void> {
  const { error, results } = isSqlite(db) ? await migrateHoldingWriteLock(db, schema) : await runMigrator(db, schema)
  if (!error) return
  // A newer version may have migrated between the read and the lock; the Migrator then calls its
  // migrations "corrupted", which would hide what happened.
  refuseUnknownMigrations(await readMigrationState(db, schema), version)
  const failed = results?.find((result) => result.status === 'Error')
  throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error })
}

async function runMigrator(db: Kysely<unknown>, migrationTableSchema: string | undefined): Promise<MigrationResultSet> {
  return new Migrator({ db, provider, migrationTableSchema }).migrateToLatest()
}

async function readMigrationState(db: Kysely<unknown>, schema: string | undefined): Promise<MigrationState> {
  let rows: { name: string; timestamp: string }[]
  try {
    rows = (await sql<{ name: string; timestamp: string }>`select name, "timestamp" from ${tableIn(schema, 'kysely_migration')}`.execute(db)).rows
  } catch (error) {
    if (isMissingTable(error)) return { applied: new Map(), releases: [] }
    throw error
  }
  const applied = new Map(rows.map(({ name, timestamp }) => [name, timestamp]))
  if (!applied.has(RELEASES_MIGRATION)) return { applied, releases: [] }
  const releases = await sql<ReleaseRecord>`
    select version, last_migration as "lastMigration", migrated_at as "migratedAt" from ${tableIn(schema, 'hearth_releases')}
    order by last_migration, migrated_at`.execute(db)
  return { applied, releases: releases.rows }
}

/** Adds this version's row, once: several instances may get here together. */
async function recordRelease(db: Kysely<unknown>, schema: string | undefined, version: string): Promise<void> {
  await sql`
    insert into ${tableIn(schema, 'hearth_releases')} (version, last_migration, migrated_at)
    values (${version}, ${LATEST_MIGRATION}, ${new Date().toISOString()})
    on conflict do nothing`.execute(db)
}

/**
 * Refuses a database holding a migration this build does not know, naming the version that
 * recorded itself at the newest of them. One that did not is "an unrecorded version": a
 * development build, or a version stopped between migrating and recording itself. (Versions from
 * before migration 0061 recorded nothing, but every migration they applied is known here.)
 */
function refuseUnknownMigrations(state: MigrationState, version: string): void {
  const newest = [...state.applied.keys()].filter((name) => !Object.hasOwn(migrations, name)).sort().at(-1)
  if (newest === undefined) return
  const recorded = state.releases.findLast((release) => release.lastMigration === newest)
  const newer = recorded ? `Hearth ${recorded.version}` : 'an unrecorded version of Hearth'
  throw new NewerSchemaError(
    `the database was migrated by ${newer} (schema ${newest}), newer than this Hearth ${version} (schema ${LATEST_MIGRATION}): ` +
      'start the newer version, or restore the backup taken before upgrading (docs/upgrading.md)'
  )
}

/** The migration tables live in the schema the Migrator was told (see `postgresSchemaOf`). */
function tableIn(schema: string | undefined, table: string) {
  return sql.table(schema === undefined ? table : `${schema}.${table}`)
}

/** PostgreSQL's undefined_table; SQLite says it in words. */
function isMissingTable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === '42P01' || (typeof message === 'string' && message.startsWith('no such table'))
}

function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter
}

/**
 * Kysely's Migrator neither locks SQLite nor wraps its DDL in a transaction, so two processes on a
 * fresh file would both find no migration applied and both create the first table. Run on one
 * connection inside BEGIN IMMEDIATE, the first process to start holds SQLite's write lock until it
 * has applied everything; the others wait (busy_timeout) and then find nothing left to do. A
 * failed run rolls back whole, leaving the schema as it was. Hence a migration cannot VACUUM or
 * switch `PRAGMA foreign_keys` (a no-op inside a transaction).
 */
async function migrateHoldingWriteLock(db: Kysely<unknown>, schema: string | undefined): Promise<MigrationResultSet> {
  return db.connection().execute(async (connection) => {
    await beginImmediate(connection)
    try {
      // The Migrator nests its own connection() on this one, which reuses the same connection.
      const outcome = await runMigrator(connection, schema)
      if (outcome.error) await rollback(connection)
      else await sql`commit`.execute(connection)
      return outcome
    } catch (error) {
      await rollback(connection)
      throw error
    }
  })
}

/**
 * SQLite answers SQLITE_BUSY at once, without waiting out busy_timeout, where waiting could
 * deadlock, and a slow migration in another process can outlast busy_timeout: a few more tries.
 */
const BEGIN_ATTEMPTS = 5
const BEGIN_BACKOFF_MS = 200

async function beginImmediate(connection: Kysely<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`begin immediate`.execute(connection)
      return
    } catch (error) {
      if (!isBusy(error) || attempt === BEGIN_ATTEMPTS) throw error
      await sleep(BEGIN_BACKOFF_MS * attempt)
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY')
}

/** SQLite ends the transaction itself after some errors, so a rollback that finds none is no news. */
async function rollback(connection: Kysely<unknown>): Promise<void> {
  await sql`rollback`.execute(connection).catch(() => undefined)
}

/**
 * On PostgreSQL the Migrator looks for its own tables in every schema; naming the schema in use
 * keeps a database shared by several schemas (one per test run, say) from confusing it.
 */
async function postgresSchemaOf(db: Kysely<unknown>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)
  // Null when no schema on the search path exists yet: the Migrator then uses the default.
  return rows[0]?.schema ?? undefined
}
