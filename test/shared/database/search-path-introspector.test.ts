import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import pg from 'pg'
import { databasesUnderTest, useDatabase } from '../../helpers/databases.js'

const postgres = databasesUnderTest().filter((database) => database.name === 'postgres')

describe.each(postgres)('the Migrator’s look-up of its tables on $name', (database) => {
  const handle = useDatabase(database)

  it('sees only its own schema, and does not fail while other schemas of the database are dropped', async () => {
    const { db, databaseUrl, schema } = handle.current
    const others = new pg.Client({ connectionString: databaseUrl })
    await others.connect()
    let dropping = true
    const comingAndGoing = (async () => {
      try {
        for (let round = 0; round < 40; round++) {
          const other = `hearth_other_${randomBytes(4).toString('hex')}`
          await others.query(`create schema ${other}; ${Array.from({ length: 10 }, (_, n) => `create table ${other}.t${n} (id serial primary key, note text)`).join('; ')}`)
          await others.query(`drop schema ${other} cascade`)
        }
      } finally {
        dropping = false
        await others.end()
      }
    })()
    // Kysely's own introspector failed about one look-up in seventy beside such drops.
    let lookUps = 0
    while (dropping) {
      const tables = await db.introspection.getTables({ withInternalKyselyTables: true })
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema]))
      lookUps++
    }
    await comingAndGoing
    expect(lookUps).toBeGreaterThan(20)

    const users = (await db.introspection.getTables()).find((table) => table.name === 'users')
    expect(users?.columns.find((column) => column.name === 'email')).toMatchObject({ dataType: 'text', isNullable: false })
    expect((await db.introspection.getTables()).map((table) => table.name)).not.toContain('kysely_migration')
    expect((await db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name)).toContain('kysely_migration')
  })
})
