import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { type Kysely, sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { LATEST_MIGRATION } from '../../src/shared/database/migrate.js'
import type { DatabaseDialect } from '../../src/shared/database/connect.js'
import type { Database } from '../../src/shared/database/schema.js'
import { HEARTH_VERSION } from '../../src/shared/release.js'
import { type TestDatabase, databaseUrlInSchema, databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { FUTURE_MIGRATION, FUTURE_VERSION, migrateAsNewerVersion } from '../helpers/newer-schema.js'
import { freePort, runBuilt } from '../helpers/server-process.js'

const SERVICES = {
  hub: async () => {
    const port = String(await freePort())
    return { entry: 'dist/server/hub.js', env: { PORT: port, HUB_PORT: port, HUB_PUBLIC_URL: `http://127.0.0.1:${port}` } }
  },
  'task manager': async () => ({ entry: 'dist/server/tasks.js', env: { PORT: String(await freePort()) } })
}

/** The database a service reaches: the test's SQLite file in its DATA_DIR, or its own PostgreSQL schema. */
function databaseEnv({ dataDir, databaseUrl, schema }: TestDatabase): Record<string, string> {
  if (databaseUrl === undefined || schema === undefined) return { DATA_DIR: dataDir }
  return { DATA_DIR: dataDir, DATABASE_URL: databaseUrlInSchema(databaseUrl, schema).toString() }
}

/** Every row of every table, and what DATA_DIR holds: what a service that wrote anything would have changed. */
async function everything(db: Kysely<Database>, dialect: DatabaseDialect, dataDir: string) {
  const tables = dialect === 'sqlite'
    ? sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`
    : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() order by table_name`
  const rows: Record<string, string[]> = {}
  for (const { name } of (await tables.execute(db)).rows) {
    rows[name] = (await sql`select * from ${sql.table(name)}`.execute(db)).rows.map((row) => JSON.stringify(row)).sort()
  }
  return { rows, files: fs.readdirSync(dataDir).sort() }
}

/**
 * Issue 31: a service of this version started on a database a newer version migrated stops, in one
 * line naming both versions, before it writes anything (the Migrator would otherwise fail on the
 * migration it does not know, or the service run on a schema it does not know).
 */
describe.each(databasesUnderTest())('a service started on a database a newer version migrated, on $name', { timeout: 60_000 }, (database) => {
  const handle = useDatabase(database)
  beforeAll(async () => migrateAsNewerVersion(handle.current.db))

  const refusal =
    `the database was migrated by Hearth ${FUTURE_VERSION} (schema ${FUTURE_MIGRATION}), newer than this Hearth ${HEARTH_VERSION} ` +
    `(schema ${LATEST_MIGRATION}): start the newer version, or restore the backup taken before upgrading (docs/upgrading.md)`

  it.each(Object.keys(SERVICES) as (keyof typeof SERVICES)[])('the %s exits 1 with one line naming both versions, writing nothing', async (name) => {
    const { db, dialect, dataDir } = handle.current
    const before = await everything(db, dialect, dataDir)
    const { entry, env } = await SERVICES[name]()
    const service = runBuilt(entry, { ...databaseEnv(handle.current), ...env })

    expect(await service.exited).toBe(1)
    const lines = service.output().trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 60, msg: refusal })
    expect(await everything(db, dialect, dataDir)).toEqual(before)
  })

  it('the grants command line, which migrates first too, exits 1 with the same line', () => {
    const grants = spawnSync(process.execPath, ['dist/src/cli/grants.js', 'list'], { env: { PATH: process.env.PATH ?? '', ...databaseEnv(handle.current) }, encoding: 'utf8' })
    expect({ code: grants.status, out: grants.stdout, err: grants.stderr }).toEqual({ code: 1, out: '', err: `${refusal}\n` })
  })
})
