import closeWithGrace from 'close-with-grace'
import type { Kysely } from 'kysely'
import { type Config, ConfigError, createDataDir, dataDirOpenToOthers, readConfig } from './config.js'
import { DatabaseUnreachableError, waitForDatabase } from './database/availability.js'
import { openDatabase } from './database/connect.js'
import { migrateToLatest } from './database/migrate.js'
import { NewerSchemaError } from './database/newer-schema-error.js'
import type { Database } from './database/schema.js'
import type { App } from './http/server.js'
import { type Logger, createLogger } from './logging.js'

export interface ServiceContext {
  config: Config
  db: Kysely<Database>
  logger: Logger
}

export interface Service {
  name: string
  port: (config: Config) => number
  build: (context: ServiceContext) => Promise<App>
  /** What start-up tells a person to open, and what to do there: "open http://localhost:3001 and create an account". */
  welcome: (config: Config) => { url: string; text: string }
}

/** How long in-flight requests get to finish after SIGTERM/SIGINT before the process gives up. */
export const SHUTDOWN_GRACE_MS = 10_000

/**
 * Reads the configuration, waits for the database (for DATABASE_CONNECT_TIMEOUT at most) and
 * migrates it, starts each service on its port, and on SIGTERM/SIGINT stops accepting, lets
 * in-flight requests finish, closes the database, exits 0.
 */
export async function runServices(services: Service[]): Promise<void> {
  const config = readConfigOrExit()
  const logger = createLogger(config.shared.logLevel)
  if (dataDirOpenToOthers(config.shared)) {
    logger.warn({ dataDir: config.shared.dataDir }, 'DATA_DIR is open to other users: its files are owner-only, but make it so too (chmod 700)')
  }
  const { db, dialect } = openDatabase({ ...config.shared, logger })
  const apps: App[] = []

  closeWithGrace({ delay: SHUTDOWN_GRACE_MS, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'stopping after an unexpected error')
    else logger.info({ signal }, 'stopping')
    for (const app of apps) await app.close()
    await db.destroy()
  })

  await waitForDatabaseOrExit(db, config, logger)
  await migrateOrExit(db, logger)
  logger.info({ dialect }, 'database ready')
  for (const service of services) {
    const app = await service.build({ config, db, logger: logger.child({ service: service.name }) })
    apps.push(app)
    await app.listen({ host: config.shared.host, port: service.port(config), listenTextResolver: (address) => listeningText(app, address) })
  }
  const welcomes = services.map((service) => ({ name: service.name, ...service.welcome(config) }))
  logger.info({ open: Object.fromEntries(welcomes.map(({ name, url }) => [name, url])) }, `ready: ${welcomes.map(({ text }) => text).join('; ')}`)
}

/**
 * Fastify's line for each address the socket listens on, as a URL only when the service answers
 * requests sent to it: a socket on every interface (HOST=0.0.0.0) is reached at addresses whose
 * Host the DNS-rebinding check refuses (421), and a printed URL is one a person will open.
 */
export function listeningText(app: Pick<App, 'answersHost'>, address: string): string {
  const url = URL.parse(address)
  if (url === null || app.answersHost(url.host)) return `Server listening at ${address}`
  return `Server listening on ${url.host}, which is not one of its allowed Hosts (HUB_ALLOWED_HOSTS, TASKS_ALLOWED_HOSTS): requests there get 421`
}

async function waitForDatabaseOrExit(db: Kysely<Database>, config: Config, logger: Logger): Promise<void> {
  try {
    await waitForDatabase(db, { timeoutMs: config.shared.databaseConnectTimeoutSeconds * 1000, logger })
  } catch (error) {
    if (!(error instanceof DatabaseUnreachableError)) throw error
    logger.fatal({ reason: error.message }, 'giving up: the database is unreachable (DATABASE_CONNECT_TIMEOUT)')
    await db.destroy()
    process.exit(1)
  }
}

/** A database a newer version migrated stops start-up in one line, before anything is written to it. */
async function migrateOrExit(db: Kysely<Database>, logger: Logger): Promise<void> {
  try {
    await migrateToLatest(db)
  } catch (error) {
    if (!(error instanceof NewerSchemaError)) throw error
    logger.fatal(error.message)
    await db.destroy()
    process.exit(1)
  }
}

export function readConfigOrExit(): Config {
  try {
    const config = readConfig()
    createDataDir(config.shared)
    return config
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Invalid configuration: ${error.message}`)
      process.exit(1)
    }
    throw error
  }
}
