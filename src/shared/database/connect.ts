import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { LRUCache } from 'lru-cache'
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely'
import type pg from 'pg'
import type { Logger } from '../logging.js'
import { outageReason } from './availability.js'
import { SearchPathPostgresDialect } from './search-path-introspector.js'
import type { Database } from './schema.js'

export type DatabaseDialect = 'sqlite' | 'postgres'

/** The SQLite database's file in DATA_DIR. */
export const SQLITE_DATABASE_FILE = 'hearth.db'

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
  /** Where a connection lost while idle is reported. */
  logger?: Logger | undefined
}

/**
 * How long a request waits for a new PostgreSQL connection. node-postgres waits for ever by
 * default, so an unreachable server would hold every request until the client gave up.
 */
const CONNECT_TIMEOUT_MS = 5_000

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const plugins = [new CamelCasePlugin()]
  if (options.databaseUrl) {
    const { databaseUrl } = options
    // node-postgres is imported with the first connection, so a hub on SQLite never loads it.
    const pool = async () => {
      const { default: postgres } = await import('pg')
      const created = new postgres.Pool({
        connectionString: databaseUrl,
        max: options.maxConnections ?? 10,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        // Finds a connection whose server or network went away while it sat idle.
        keepAlive: true,
        ...(options.schema ? { options: `-c search_path=${options.schema}` } : {})
      })
      replaceLostConnections(created, options.logger)
      return created
    }
    return { db: new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }), plugins }), dialect: 'postgres' }
  }
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  const file = openOwnerOnly(path.join(options.dataDir, SQLITE_DATABASE_FILE))
  // A statement waits up to 5 s for another process's lock (better-sqlite3's default, said here).
  file.pragma('busy_timeout = 5000')
  // WAL lets readers run beside the writer; NORMAL sync in WAL mode survives a process crash.
  switchToWal(file)
  file.pragma('synchronous = NORMAL')
  file.pragma('foreign_keys = ON')
  // A deleted row is overwritten with zeros, on its page and on pages freed by the delete, rather
  // than left in free space for anyone with a copy of the file: an erased account must not outlive
  // its erasure in the file (docs/privacy.md, "Erased data on disk"). Not FAST, which leaves freed
  // pages as they were.
  file.pragma('secure_delete = ON')
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(file) }), plugins }), dialect: 'sqlite' }
}

const WAL_SWITCH_ATTEMPTS = 10

/**
 * Switching a fresh file to WAL needs a lock SQLite does not wait for: with several processes
 * opening it at once, one in a few hundred got SQLITE_BUSY at once. It happens only at start-up,
 * so the retry may block the thread for the few milliseconds it waits.
 */
function switchToWal(file: SQLite.Database): void {
  for (let attempt = 1; ; attempt++) {
    try {
      file.pragma('journal_mode = WAL')
      return
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || attempt === WAL_SWITCH_ATTEMPTS) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20 * attempt)
    }
  }
}

/**
 * SQLite's files hold password hashes and session ids, so no one but the owner may read them.
 * SQLite creates the database 0644 (less the umask) and its -wal and -shm files with the
 * database's mode: the database is created 0600 before SQLite opens it, and files an earlier
 * version left readable (the -wal and -shm a crash left behind among them) are tightened.
 */
function openOwnerOnly(database: string): SQLite.Database {
  try {
    fs.closeSync(fs.openSync(database, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  for (const file of [database, `${database}-wal`, `${database}-shm`]) {
    const stats = fs.statSync(file, { throwIfNoEntry: false })
    if (stats && (stats.mode & 0o077) !== 0) fs.chmodSync(file, 0o600)
  }
  return new SQLite(database)
}

/**
 * A connection the server ends (a restart, a failover, `pg_terminate_backend`) emits `error`.
 * node-postgres drops it from the pool and connects anew on the next query, but an `error`
 * event nobody listens to ends the process; so each loss is logged in one line and nothing more.
 * A connection checked out between two queries of a transaction has no pool listener, hence
 * one of its own: the query that next uses it fails, and the pool discards it on release.
 */
function replaceLostConnections(pool: pg.Pool, logger: Logger | undefined): void {
  pool.on('error', (error) => logger?.warn({ reason: outageReason(error) }, 'database connection lost; the pool will open a new one'))
  pool.on('connect', (client) => client.on('error', () => {}))
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
