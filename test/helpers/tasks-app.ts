import type { Kysely } from 'kysely'
import type { AccessResolver } from '../../src/shared/access-grants/access-resolver.js'
import type { TasksConfig } from '../../src/shared/config.js'
import type { Database } from '../../src/shared/database/schema.js'
import { createLogger } from '../../src/shared/logging.js'
import { buildTasksApp } from '../../src/tasks/app.js'

export const TEST_TASKS_CONFIG: TasksConfig = { port: 0, appId: 'tasks', permissionsEnabled: false }

export function buildTestTasksApp(
  db: Kysely<Database>,
  options: { config?: Partial<TasksConfig>; accessResolver?: AccessResolver } = {}
) {
  return buildTasksApp({
    config: { ...TEST_TASKS_CONFIG, ...options.config },
    db,
    logger: createLogger('silent'),
    ...(options.accessResolver ? { accessResolver: options.accessResolver } : {})
  })
}
