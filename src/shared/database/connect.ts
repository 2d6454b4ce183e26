import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { LRUCache } from 'lru-cache'
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { Database } from './schema.js'

export type DatabaseDialect = 'sqlite' | 'postgres'

export interface DatabaseHandle {
  db: Kysely<Database>
  dialect: DatabaseDialect
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent, SQLite at `<dataDir>/hearth.db`. */
  databaseUrl: string | undefined
  dataDir: string
  /** PostgreSQL schema to work in (tests give each run its own). */
  schema?: string | undefined
  /** Largest PostgreSQL pool size. */
  maxConnections?: number | undefined
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const plugins = [new CamelCasePlugin()]
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {})
    })
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins }), dialect: 'postgres' }
  }
  fs.mkdirSync(options.dataDir, { recursive: true })
  const file = new SQLite(path.join(options.dataDir, 'hearth.db'))
  // WAL lets readers run beside the writer; NORMAL sync in WAL mode survives a process crash.
  file.pragma('journal_mode = WAL')
  file.pragma('synchronous = NORMAL')
  file.pragma('busy_timeout = 5000')
  file.pragma('foreign_keys = ON')
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(file) }), plugins }), dialect: 'sqlite' }
}

/** Distinct SQL texts the application runs; far more than it has, far fewer than memory allows. */
const STATEMENT_CACHE_SIZE = 500

/**
 * Kysely's SQLite driver prepares every query anew, which is a tenth of a short request's time.
 * Statements are reusable, so this keeps them by SQL text (SQLite re-prepares them itself after a
 * schema change).
 */
function reusingStatements(file: SQLite.Database): SQLite.Database {
  const statements = new LRUCache<string, SQLite.Statement>({ max: STATEMENT_CACHE_SIZE })
  const prepare = file.prepare.bind(file)
  file.prepare = ((source: string) => {
    let statement = statements.get(source)
    if (!statement) {
      statement = prepare(source)
      statements.set(source, statement)
    }
    return statement
  }) as typeof file.prepare
  return file
}
