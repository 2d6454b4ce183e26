import { afterAll, beforeAll, inject } from 'vitest'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { type DatabaseDialect, openDatabase } from '../../src/shared/database/connect.js'
import type { Database } from '../../src/shared/database/schema.js'
import { SCHEMA_PLACEHOLDER } from './database-templates.js'

export interface TestDatabase {
  db: Kysely<Database>
  dialect: DatabaseDialect
  /** Where SQLite keeps its file; a scratch folder on PostgreSQL too. */
  dataDir: string
  /** Set on PostgreSQL: the URL and the schema this run owns. */
  databaseUrl?: string
  schema?: string
  destroy(): Promise<void>
}

export interface DatabaseUnderTest {
  name: DatabaseDialect
  open(): Promise<TestDatabase>
}

/**
 * Every database starts migrated to the latest version: a copy of the file, or a replay of the
 * SQL, the migrations wrote once for this run (test/helpers/database-templates.ts).
 */
let sqliteTemplate: Buffer | undefined

const sqlite: DatabaseUnderTest = {
  name: 'sqlite',
  async open() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-test-'))
    sqliteTemplate ??= Buffer.from(inject('sqliteTemplate'), 'base64')
    // Owner-only, as openDatabase creates it.
    fs.writeFileSync(path.join(dataDir, 'hearth.db'), sqliteTemplate, { mode: 0o600, flag: 'wx' })
    const { db, dialect } = openDatabase({ databaseUrl: undefined, dataDir })
    return {
      db,
      dialect,
      dataDir,
      async destroy() {
        await db.destroy()
        fs.rmSync(dataDir, { recursive: true, force: true })
      }
    }
  }
}

function postgres(databaseUrl: string): DatabaseUnderTest {
  return {
    name: 'postgres',
    async open() {
      // Each run works in a schema of its own, so runs and test files never collide.
      const schema = `hearth_test_${process.pid}_${randomBytes(4).toString('hex')}`
      const migrations = inject('postgresMigrationScript')
      if (!migrations) throw new Error('the global set-up (test/helpers/database-templates.ts) found no TEST_DATABASE_URL')
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-test-'))
      const { db, dialect } = openDatabase({ databaseUrl, dataDir, schema, maxConnections: 5 })
      // One round trip, on the pool's first connection, whose search_path already names the schema.
      await sql.raw(`begin; create schema ${schema}; ${migrations.replaceAll(SCHEMA_PLACEHOLDER, schema)}; commit`).execute(db)
      return {
        db,
        dialect,
        dataDir,
        databaseUrl,
        schema,
        async destroy() {
          await db.destroy()
          await withAdminClient(databaseUrl, (client) => client.query(`drop schema ${schema} cascade`))
          fs.rmSync(dataDir, { recursive: true, force: true })
        }
      }
    }
  }
}

async function withAdminClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A URL whose connections work in `schema`, for a service or command started with DATABASE_URL. */
export function databaseUrlInSchema(databaseUrl: string, schema: string): URL {
  const url = new URL(databaseUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return url
}

let noticePrinted = false

/**
 * SQLite always; PostgreSQL when TEST_DATABASE_URL is set. In CI a missing PostgreSQL is a
 * failure, never a silent skip.
 */
export function databasesUnderTest(): DatabaseUnderTest[] {
  const url = process.env.TEST_DATABASE_URL
  if (url) return [sqlite, postgres(url)]
  if (process.env.CI === 'true') throw new Error('TEST_DATABASE_URL must be set in CI: the suite runs on PostgreSQL too')
  if (!noticePrinted) {
    noticePrinted = true
    console.warn('Notice: TEST_DATABASE_URL is not set, so the PostgreSQL half of the suite is skipped.')
  }
  return [sqlite]
}

/** Opens the database before the suite's tests and destroys it after; read `.current` inside tests. */
export function useDatabase(database: DatabaseUnderTest): { readonly current: TestDatabase } {
  let handle: TestDatabase | undefined
  beforeAll(async () => {
    handle = await database.open()
  })
  afterAll(async () => {
    await handle?.destroy()
  })
  return {
    get current() {
      if (!handle) throw new Error('the database opens in beforeAll')
      return handle
    }
  }
}
