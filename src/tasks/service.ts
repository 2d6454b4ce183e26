import type { Service, ServiceContext } from '../shared/runtime.js'
import type { JWTVerifyGetKey } from 'jose'
import { buildTasksApp } from './app.js'
import { TASKS_COOKIE_SECRET_FILE, loadCookieSecrets } from '../hub/kernel/security/cookie-secrets.js'
import { registerTasksClient } from './web/hub-client-registration.js'

export interface TasksServiceOptions {
  /** The hub's public keys without HTTP when the hub runs in the same process: SSO tokens and security events verify against them. */
  hubKeys?: (context: ServiceContext) => Promise<JWTVerifyGetKey>
  /** Register the pages as the hub's first-party OpenID Connect client: the hub shares this database. */
  registerWithHub?: boolean
}

export function createTasksService({ hubKeys, registerWithHub = false }: TasksServiceOptions = {}): Service {
  return {
    name: 'tasks',
    port: (config) => config.tasks.port,
    build: async (context) => {
      const { config, db, logger } = context
      if (registerWithHub) await registerTasksClient(db, config.tasks, logger)
      return buildTasksApp({
        config: config.tasks,
        db,
        logger,
        cookieKeys: loadCookieSecrets(undefined, config.shared.dataDir, TASKS_COOKIE_SECRET_FILE),
        ...(hubKeys ? { hubKeys: await hubKeys(context) } : {})
      })
    },
    welcome: ({ tasks }) => ({ url: tasks.publicUrl, text: `the task manager is at ${tasks.publicUrl}` })
  }
}
