import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/shared/database/connect.js'
import { migrateToLatest } from '../../src/shared/database/migrate.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'

describe.each(databasesUnderTest())('migrations on $name', (database) => {
  const handle = useDatabase(database)

  const appliedNames = async () =>
    (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.current.db)).rows.map((row) => row.name)

  it('are idempotent: running them again changes nothing', async () => {
    const before = await appliedNames()
    expect(before).toContain('0001-tasks')
    await migrateToLatest(handle.current.db)
    await migrateToLatest(handle.current.db)
    expect(await appliedNames()).toEqual(before)
  })

  // Only PostgreSQL has several instances on one database; defined for it alone, so SQLite reports no skipped test.
  if (database.name === 'postgres') it('are safe when several instances start at once', async () => {
    const { databaseUrl, schema } = handle.current
    const freshSchema = `${schema}_race`
    await sql.raw(`create schema ${freshSchema}`).execute(handle.current.db)
    const instances = Array.from({ length: 4 }, () =>
      openDatabase({ databaseUrl, dataDir: handle.current.dataDir, schema: freshSchema, maxConnections: 2 })
    )
    try {
      await Promise.all(instances.map(({ db }) => migrateToLatest(db)))
      const applied = await sql<{ count: string }>`select count(*) as count from ${sql.table(`${freshSchema}.kysely_migration`)}`.execute(handle.current.db)
      expect(Number(applied.rows[0]?.count)).toBe((await appliedNames()).length)
    } finally {
      await Promise.all(instances.map(({ db }) => db.destroy()))
      await sql.raw(`drop schema ${freshSchema} cascade`).execute(handle.current.db)
    }
  })
})
