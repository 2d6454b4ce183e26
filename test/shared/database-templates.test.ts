import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Database } from '../../src/shared/database/schema.js'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/shared/database/connect.js'
import { migrateToLatest } from '../../src/shared/database/migrate.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'

/**
 * The suite's databases start from what the migrations wrote once per run (a file copy on
 * SQLite, a replayed script on PostgreSQL): each must be what running the migrations makes.
 */
describe.each(databasesUnderTest())('a test database on $name', (database) => {
  const handle = useDatabase(database)

  it('has the schema and rows that running every migration from scratch gives', async () => {
    const { db, databaseUrl, dataDir, schema } = handle.current
    if (database.name === 'sqlite') {
      const freshDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-fresh-'))
      const fresh = openDatabase({ databaseUrl: undefined, dataDir: freshDir })
      try {
        await migrateToLatest(fresh.db)
        expect(await sqliteContents(db)).toEqual(await sqliteContents(fresh.db))
      } finally {
        await fresh.db.destroy()
        fs.rmSync(freshDir, { recursive: true, force: true })
      }
    } else {
      const freshSchema = `${schema}_fresh`
      await sql.raw(`create schema ${freshSchema}`).execute(db)
      const fresh = openDatabase({ databaseUrl, dataDir, schema: freshSchema, maxConnections: 1 })
      try {
        await migrateToLatest(fresh.db)
        expect(await postgresContents(db, schema!)).toEqual(await postgresContents(fresh.db, freshSchema))
      } finally {
        await fresh.db.destroy()
        await sql.raw(`drop schema ${freshSchema} cascade`).execute(db)
      }
    }
  })

  // A replayed migration lock would stay with the connection, and every other migration would wait for it to close.
  if (database.name === 'postgres') it('holds no lock once open', async () => {
    const opened = await database.open()
    try {
      // The pool's only connection so far, the one the migrations ran on.
      const { rows } = await sql<{ held: string }>`select count(*) as held from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`.execute(opened.db)
      expect(Number(rows[0]?.held)).toBe(0)
    } finally {
      await opened.destroy()
    }
  })
})

/** Rows the migrations insert, less the moment they ran. */
async function seededRows(db: Kysely<Database>) {
  const rows = async (query: string) => (await sql.raw<Record<string, unknown>>(query).execute(db)).rows
  return {
    migrations: await rows('select name from kysely_migration order by name'),
    lock: await rows('select * from kysely_migration_lock'),
    plans: (await rows('select * from billing_plans order by id')).map(({ createdAt: _, ...plan }) => plan)
  }
}

async function sqliteContents(db: Kysely<Database>) {
  const objects = await sql`select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(db)
  const settings = await sql`select * from pragma_page_size, pragma_auto_vacuum, pragma_user_version, pragma_encoding`.execute(db)
  return { objects: objects.rows, settings: settings.rows, rows: await seededRows(db) }
}

/** Read through a connection whose search_path is `schema`, so no name comes out qualified. */
async function postgresContents(db: Kysely<Database>, schema: string) {
  const rows = async (query: RawBuilder<unknown>) => (await query.execute(db)).rows
  return {
    columns: await rows(sql`select table_name, column_name, ordinal_position, data_type, is_nullable, column_default
      from information_schema.columns where table_schema = ${schema} order by table_name, ordinal_position`),
    indexes: await rows(sql`select tablename, indexname, replace(indexdef, ${`${schema}.`}, '') as indexdef
      from pg_indexes where schemaname = ${schema} order by tablename, indexname`),
    constraints: await rows(sql`select c.conrelid::regclass::text as owner, c.conname, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = ${schema} order by owner, c.conname`),
    sequences: await rows(sql`select sequence_name, data_type, start_value from information_schema.sequences where sequence_schema = ${schema} order by sequence_name`),
    rows: await seededRows(db)
  }
}
