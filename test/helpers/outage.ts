import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { openDatabase } from '../../src/shared/database/connect.js'
import type { Database } from '../../src/shared/database/schema.js'
import type { Logger } from '../../src/shared/logging.js'
import { type DatabaseUnderTest, type TestDatabase, databasesUnderTest, useDatabase } from './databases.js'
import { type TcpProxy, postgresAddress, tcpProxy, throughPort } from './tcp-proxy.js'

/** The PostgreSQL half of `databasesUnderTest()`: undefined (after its notice) outside CI without one. */
export function postgresUnderTest(): DatabaseUnderTest | undefined {
  return databasesUnderTest().find((database) => database.name === 'postgres')
}

export interface OutageRig {
  /** The migrated test database, reached directly. */
  readonly handle: TestDatabase
  /** The same database as the service under test reaches it: through `proxy`, as `applicationName`. */
  readonly db: Kysely<Database>
  readonly proxy: TcpProxy
  readonly applicationName: string
  /** Ends every server connection of the service under test, as a failover or an operator would. */
  terminateBackends(): Promise<number>
}

/**
 * A PostgreSQL database for the suite that a test can take away from the service under test
 * (stop the proxy) or cut its connections to (`pg_terminate_backend`), never touching the
 * server the other suites share.
 */
export function useOutageRig(database: DatabaseUnderTest, logger: Logger): OutageRig {
  const handle = useDatabase(database)
  const applicationName = `hearth_outage_${randomBytes(4).toString('hex')}`
  const state = {} as { db: Kysely<Database>; proxy: TcpProxy }
  beforeAll(async () => {
    const { databaseUrl, dataDir, schema } = handle.current
    state.proxy = await tcpProxy(postgresAddress(databaseUrl!))
    const viaProxy = throughPort(databaseUrl!, state.proxy.port, applicationName)
    state.db = openDatabase({ databaseUrl: viaProxy, dataDir, schema, maxConnections: 4, logger }).db
  })
  afterAll(async () => {
    await state.db?.destroy()
    await state.proxy?.stop()
  })
  return {
    get handle() {
      return handle.current
    },
    get db() {
      return state.db
    },
    get proxy() {
      return state.proxy
    },
    applicationName,
    async terminateBackends() {
      const admin = new pg.Client({ connectionString: handle.current.databaseUrl })
      await admin.connect()
      try {
        const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName])
        return rowCount ?? 0
      } finally {
        await admin.end()
      }
    }
  }
}

/** Retries `attempt` until it returns true, for at most `withinMs`; answers how long it took. */
export async function eventually(attempt: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now()
  for (;;) {
    if (await attempt()) return Date.now() - started
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
