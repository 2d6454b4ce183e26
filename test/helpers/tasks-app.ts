import type { Kysely } from 'kysely'
import { afterAll, beforeAll } from 'vitest'
import type { TasksConfig } from '../../src/shared/config.js'
import type { Database } from '../../src/shared/database/schema.js'
import type { App } from '../../src/shared/http/server.js'
import { createLogger } from '../../src/shared/logging.js'
import { type TasksAppDependencies, buildTasksApp } from '../../src/tasks/app.js'
import { type DatabaseUnderTest, useDatabase } from './databases.js'

export const TEST_TASKS_CONFIG: TasksConfig = {
  port: 0,
  appId: 'tasks',
  permissionsEnabled: false,
  auth: 'header',
  hubIssuer: 'http://localhost:3001',
  hubJwksUrl: new URL('http://localhost:3001/.well-known/jwks.json'),
  // fastify's inject sends `Host: localhost:80`, which is `localhost` (see canonicalHost).
  allowedHosts: ['localhost'],
  publicUrl: 'http://localhost'
}

/** A grants store that is down: every lookup fails. */
export const failingGrants = {
  resolve: async () => {
    throw new Error('grants store unavailable')
  }
}

export function buildTestTasksApp(
  db: Kysely<Database>,
  options: { config?: Partial<TasksConfig> } & Pick<TasksAppDependencies, 'accessResolver' | 'verifySsoToken' | 'hubKeys' | 'now' | 'cookieKeys'> = {}
) {
  const { config, ...overrides } = options
  return buildTasksApp({ config: { ...TEST_TASKS_CONFIG, ...config }, db, logger: createLogger('silent'), ...overrides })
}

/** A task manager on a fresh database for the suite; read `.app` and `.db` inside tests. */
export function useTasksApp(database: DatabaseUnderTest) {
  const handle = useDatabase(database)
  let app: App | undefined
  beforeAll(async () => {
    app = await buildTestTasksApp(handle.current.db)
  })
  afterAll(async () => {
    await app?.close()
  })
  return {
    get app() {
      if (!app) throw new Error('the app is built in beforeAll')
      return app
    },
    get db() {
      return handle.current.db
    }
  }
}
