import type { Kysely } from 'kysely'
import type { TasksConfig } from '../../src/shared/config.js'
import type { Database } from '../../src/shared/database/schema.js'
import { createLogger } from '../../src/shared/logging.js'
import { type TasksAppDependencies, buildTasksApp } from '../../src/tasks/app.js'

export const TEST_TASKS_CONFIG: TasksConfig = {
  port: 0,
  appId: 'tasks',
  permissionsEnabled: false,
  auth: 'header',
  hubIssuer: 'http://localhost:3001',
  hubJwksUrl: new URL('http://localhost:3001/.well-known/jwks.json')
}

export function buildTestTasksApp(
  db: Kysely<Database>,
  options: { config?: Partial<TasksConfig> } & Pick<TasksAppDependencies, 'accessResolver' | 'verifySsoToken'> = {}
) {
  const { config, ...overrides } = options
  return buildTasksApp({ config: { ...TEST_TASKS_CONFIG, ...config }, db, logger: createLogger('silent'), ...overrides })
}
