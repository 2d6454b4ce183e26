import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { LATEST_MIGRATION, migrateToLatest } from '../../src/shared/database/migrate.js'
import { NewerSchemaError } from '../../src/shared/database/newer-schema-error.js'
import { HEARTH_VERSION } from '../../src/shared/release.js'
import { type TestDatabase, databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { FUTURE_MIGRATION, forgetNewerVersion, migrateAsNewerVersion } from '../helpers/newer-schema.js'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Kysely's PostgreSQL migration lock, an advisory lock on this key (kysely/dist/esm/dialect/postgres/postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107'

/**
 * Holds what a migration run waits for while `work` runs: SQLite's write lock, taken by another
 * connection to the file, or the Migrator's advisory lock on PostgreSQL, taken by another session.
 */
async function whileMigrationsAreLocked<T>({ dataDir, databaseUrl }: TestDatabase, work: () => Promise<T>): Promise<T> {
  if (databaseUrl === undefined) {
    const other = new SQLite(path.join(dataDir, 'hearth.db'))
    other.exec('begin immediate')
    try {
      return await work()
    } finally {
      other.exec('rollback')
      other.close()
    }
  }
  const other = new pg.Client({ connectionString: databaseUrl })
  await other.connect()
  try {
    await other.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`)
    return await work()
  } finally {
    await other.end()
  }
}

/** Settles `promise` or rejects after `ms`: a migration run stuck on a lock fails the test instead of holding it for minutes. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))])
}

describe.each(databasesUnderTest())('migration start-up checks on $name', (database) => {
  const handle = useDatabase(database)
  const releases = async () =>
    (await sql<{ version: string; lastMigration: string }>`select version, last_migration from hearth_releases order by migrated_at`.execute(handle.current.db)).rows.map(
      ({ version, lastMigration }) => ({ version, lastMigration })
    )
  afterEach(async () => {
    await forgetNewerVersion(handle.current.db)
    await sql`delete from hearth_releases where version <> ${HEARTH_VERSION}`.execute(handle.current.db)
  })

  it('record the version that migrated the database once, and each later version once', async () => {
    expect(await releases()).toEqual([{ version: HEARTH_VERSION, lastMigration: LATEST_MIGRATION }])
    await migrateToLatest(handle.current.db)
    expect(await releases()).toEqual([{ version: HEARTH_VERSION, lastMigration: LATEST_MIGRATION }])
    // An upgrade that brings no migration.
    await migrateToLatest(handle.current.db, '99.1.0')
    await migrateToLatest(handle.current.db, '99.1.0')
    expect(await releases()).toEqual([
      { version: HEARTH_VERSION, lastMigration: LATEST_MIGRATION },
      { version: '99.1.0', lastMigration: LATEST_MIGRATION }
    ])
  })

  it('check an up-to-date database without waiting for the migration lock', { timeout: 30_000 }, async () => {
    // Before the fast path, this waited for SQLite's busy timeout and failed, or for PostgreSQL's lock for an hour.
    await whileMigrationsAreLocked(handle.current, () => within(3_000, migrateToLatest(handle.current.db)))
  })

  it('refuse a migration they do not know, naming the version that recorded it, or saying none did', async () => {
    await migrateAsNewerVersion(handle.current.db, { recorded: false })
    const refusal = migrateToLatest(handle.current.db)
    await expect(refusal).rejects.toThrow(NewerSchemaError)
    await expect(refusal).rejects.toThrow(
      `the database was migrated by an unrecorded version of Hearth (schema ${FUTURE_MIGRATION}), newer than this Hearth ${HEARTH_VERSION} (schema ${LATEST_MIGRATION}): ` +
        'start the newer version, or restore the backup taken before upgrading (docs/upgrading.md)'
    )
  })

  it('migrate a database an older version left, which recorded no version', async () => {
    const { db } = handle.current
    await sql`delete from kysely_migration where name = '0061-hearth-releases'`.execute(db)
    await sql`drop table hearth_releases`.execute(db)
    await migrateToLatest(db)
    expect(await releases()).toEqual([{ version: HEARTH_VERSION, lastMigration: LATEST_MIGRATION }])
    const applied = await sql<{ name: string }>`select name from kysely_migration where name = '0061-hearth-releases'`.execute(db)
    expect(applied.rows).toHaveLength(1)
  })
})

describe('the version a build records', () => {
  it("is package.json's, and its schema is the newest migration file", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
    expect(HEARTH_VERSION).toBe(version)
    const files = fs.readdirSync(path.join(ROOT, 'src/shared/database/migrations')).map((file) => file.replace(/\.ts$/, '')).sort()
    expect(LATEST_MIGRATION).toBe(files.at(-1))
  })
})
