import type { Service, ServiceContext } from '../shared/runtime.js'
import type { SsoTokenVerifier } from '../shared/sso/token-verifier.js'
import { buildTasksApp } from './app.js'

export interface TasksServiceOptions {
  /** Verifies SSO tokens without HTTP when the hub runs in the same process. */
  verifySsoToken?: (context: ServiceContext) => Promise<SsoTokenVerifier>
}

export function createTasksService({ verifySsoToken }: TasksServiceOptions = {}): Service {
  return {
    name: 'tasks',
    port: (config) => config.tasks.port,
    build: async (context) => {
      const { config, db, logger } = context
      return buildTasksApp({
        config: config.tasks,
        db,
        logger,
        ...(verifySsoToken ? { verifySsoToken: await verifySsoToken(context) } : {})
      })
    }
  }
}
