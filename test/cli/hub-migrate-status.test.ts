import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { LATEST_MIGRATION, migrateToLatest } from '../../src/shared/database/migrate.js'
import { HEARTH_VERSION } from '../../src/shared/release.js'
import { useHubCli } from '../helpers/hub-cli.js'
import { FUTURE_MIGRATION, FUTURE_VERSION, migrateAsNewerVersion } from '../helpers/newer-schema.js'

/** Every migration there is: each file in the migrations folder. */
const MIGRATIONS = fs
  .readdirSync(path.resolve(import.meta.dirname, '../../src/shared/database/migrations'))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort()
const ISO_TIME = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z'

/** Issue 31: `migrate:status` says what is applied and what is pending, and who migrated; it migrates nothing. */
describe('hub CLI: migrate:status', () => {
  const { output, io, withDatabase } = useHubCli()

  it('lists every migration as pending on a fresh database, and leaves it so', async () => {
    expect(await runHubCli(['migrate:status'], io())).toBe(0)
    expect(await runHubCli(['migrate:status'], io())).toBe(0)
    const once = [
      `This is Hearth ${HEARTH_VERSION} (schema ${LATEST_MIGRATION}). The database has not been migrated yet.`,
      ...MIGRATIONS.map((name) => `pending  ${' '.repeat(24)}  ${name}`),
      `0 applied, ${MIGRATIONS.length} pending. Starting the hub or the task manager applies them.`
    ]
    expect(output.out).toEqual([...once, ...once])
  })

  it('lists each applied migration with its time, and the version that migrated', async () => {
    await withDatabase((db) => migrateToLatest(db))
    const migratedAt = await withDatabase(async (db) => (await sql<{ at: string }>`select migrated_at as at from hearth_releases`.execute(db)).rows[0]?.at)
    expect(await runHubCli(['migrate:status'], io())).toBe(0)
    expect(output.out[0]).toBe(
      `This is Hearth ${HEARTH_VERSION} (schema ${LATEST_MIGRATION}). The database was last migrated by Hearth ${HEARTH_VERSION} (schema ${LATEST_MIGRATION}) at ${migratedAt}.`
    )
    expect(output.out.slice(1, -1)).toEqual(MIGRATIONS.map((name) => expect.stringMatching(new RegExp(`^applied  ${ISO_TIME}  ${name}$`))))
    expect(output.out.at(-1)).toBe(`${MIGRATIONS.length} applied, 0 pending.`)
  })

  it('lists a migration a newer version applied, and names that version', async () => {
    await withDatabase(async (db) => {
      await migrateToLatest(db)
      await migrateAsNewerVersion(db)
    })
    expect(await runHubCli(['migrate:status'], io())).toBe(0)
    expect(output.out[0]).toMatch(`The database was last migrated by Hearth ${FUTURE_VERSION} (schema ${FUTURE_MIGRATION}) at `)
    expect(output.out.at(-2)).toMatch(new RegExp(`^unknown  ${ISO_TIME}  ${FUTURE_MIGRATION}$`))
    expect(output.out.at(-1)).toBe(`${MIGRATIONS.length} applied, 0 pending, 1 unknown to this version: a newer one migrated the database.`)
  })

  it('says when a database records no version: an older one migrated it', async () => {
    await withDatabase(async (db) => {
      await migrateToLatest(db)
      await sql`delete from kysely_migration where name = ${LATEST_MIGRATION}`.execute(db)
      await sql`drop table hearth_releases`.execute(db)
    })
    expect(await runHubCli(['migrate:status'], io())).toBe(0)
    expect(output.out[0]).toBe(
      `This is Hearth ${HEARTH_VERSION} (schema ${LATEST_MIGRATION}). The database records no version: it was last migrated by a version from before they were recorded.`
    )
    expect(output.out.at(-2)).toBe(`pending  ${' '.repeat(24)}  ${LATEST_MIGRATION}`)
    expect(output.out.at(-1)).toBe(`${MIGRATIONS.length - 1} applied, 1 pending. Starting the hub or the task manager applies them.`)
  })

  it('reports on such a database, where every other command exits 1 with the one-line refusal', async () => {
    await withDatabase(async (db) => {
      await migrateToLatest(db)
      await migrateAsNewerVersion(db)
    })
    expect(await runHubCli(['csp:top'], io())).toBe(1)
    expect(output.err).toEqual([expect.stringMatching(`^the database was migrated by Hearth ${FUTURE_VERSION} `)])
  })
})
