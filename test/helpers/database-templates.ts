import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CamelCasePlugin, Kysely } from 'kysely'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '../../src/shared/database/connect.js'
import { migrateToLatest } from '../../src/shared/database/migrate.js'
import { SearchPathPostgresDialect } from '../../src/shared/database/search-path-introspector.js'

/**
 * The suite opens a few hundred databases, and running every migration for each one was a
 * good part of its time (on PostgreSQL a hundred round trips, and more under load). This global
 * set-up migrates once per run; each suite's `open()` starts from the result (see databases.ts).
 * Nothing outlives the run: the SQLite file travels in memory and the PostgreSQL schema the
 * migrations ran in is dropped at once, so concurrent runs share nothing to collide on.
 * test/shared/migrate.test.ts still runs the migrations from scratch, and
 * test/shared/database-templates.test.ts checks a copy against a freshly migrated database.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite database file, closed (so checkpointed), base64. */
    sqliteTemplate: string
    /** The SQL the migrations ran on PostgreSQL, schema-qualified names written as SCHEMA_PLACEHOLDER. */
    postgresMigrationScript: string | undefined
  }
}

export const SCHEMA_PLACEHOLDER = '__hearth_schema__'

export default async function setup(project: TestProject): Promise<void> {
  project.provide('sqliteTemplate', (await migratedSqliteFile()).toString('base64'))
  const databaseUrl = process.env.TEST_DATABASE_URL
  project.provide('postgresMigrationScript', databaseUrl ? await postgresMigrationScript(databaseUrl) : undefined)
}

export async function migratedSqliteFile(): Promise<Buffer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-template-'))
  try {
    const { db } = openDatabase({ databaseUrl: undefined, dataDir })
    await migrateToLatest(db)
    // The last connection to close checkpoints the WAL into the file and deletes it.
    await db.destroy()
    return fs.readFileSync(path.join(dataDir, 'hearth.db'))
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * Runs the migrations in a scratch schema and keeps what they wrote, as one script that does it
 * again in a single round trip: the transaction is the caller's, parameters are written in as
 * literals, and the Migrator's look-ups and its lock are left out. The lock is a session's
 * advisory lock, released by a `select` of its own: replayed, it would outlive the script on its
 * connection, and every other migration in the database would wait for that connection to close.
 */
export async function postgresMigrationScript(databaseUrl: string): Promise<string> {
  const scratch = `hearth_template_${process.pid}_${randomBytes(4).toString('hex')}`
  const writes: string[] = []
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, options: `-c search_path=${scratch}` })
  const db = new Kysely<unknown>({
    dialect: new SearchPathPostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
    log(event) {
      if (event.level !== 'query') return
      const { sql, parameters } = event.query
      if (WRITE.test(sql)) writes.push(withLiterals(sql, parameters))
      else if (!MIGRATOR_BOOKKEEPING.test(sql)) throw new Error(`no replay for a migration statement of this kind: ${sql.trim().slice(0, 80)}`)
    }
  })
  try {
    await pool.query(`create schema ${scratch}`)
    await migrateToLatest(db)
  } finally {
    await pool.query(`drop schema if exists ${scratch} cascade`).catch(() => undefined)
    await db.destroy()
  }
  return writes.map((statement) => statement.replaceAll(scratch, SCHEMA_PLACEHOLDER)).join(';\n')
}

const WRITE = /^\s*(create|alter|drop|comment|insert|update|delete)\b/i
/** Reads, the transaction around them, and the lock (`with set_timeout as (...) select pg_advisory_lock(...)`). */
const MIGRATOR_BOOKKEEPING = /^\s*(select|with|begin|commit)\b/i

function withLiterals(text: string, parameters: readonly unknown[]): string {
  if (parameters.length === 0) return text
  return text.replace(/\$(\d+)(?!\d)/g, (placeholder, index: string) => literal(parameters[Number(index) - 1], placeholder))
}

function literal(value: unknown, placeholder: string): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return pg.escapeLiteral(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  throw new Error(`a migration passed ${placeholder} as ${typeof value}; write it into the migration script here`)
}
