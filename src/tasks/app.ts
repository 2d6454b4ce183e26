import type { Kysely } from 'kysely'
import { type AccessResolver, createAccessResolver } from '../shared/access-grants/access-resolver.js'
import { createGrantsRepository } from '../shared/access-grants/repository.js'
import type { TasksConfig } from '../shared/config.js'
import type { Database } from '../shared/database/schema.js'
import { pingDatabase } from '../shared/database/availability.js'
import { allowedHosts } from '../shared/http/allowed-hosts.js'
import { READINESS_CHECK_TIMEOUT_MS, readinessRoute } from '../shared/http/readiness.js'
import { type App, createServer } from '../shared/http/server.js'
import type { Logger } from '../shared/logging.js'
import { type SsoTokenVerifier, createSsoTokenVerifier, remoteHubKeys } from '../shared/sso/token-verifier.js'
import { callerIdentification } from './identity.js'
import { batchingInserts } from './insert-batching.js'
import { cachingListReads } from './list-cache.js'
import { accessCheck } from './plugins/access-check.js'
import { TASKS_SECURITY_HEADERS, securityHeaders } from './plugins/security-headers.js'
import { createTasksRepository } from './repository.js'
import { healthRoutes } from './routes/health.js'
import { taskRoutes } from './routes/tasks.js'

export interface TasksAppDependencies {
  config: TasksConfig
  db: Kysely<Database>
  logger: Logger
  /** Overrides the grants lookup (tests use it to simulate a failing store). */
  accessResolver?: AccessResolver
  /** The hub's SSO token check; by default the hub's JWKS is fetched from `config.hubJwksUrl`. */
  verifySsoToken?: SsoTokenVerifier
}

/**
 * The task manager: security headers and the Host check on every request; health and readiness
 * outside the access check; every task route behind it. Reading this function tells how a request
 * is handled.
 */
export async function buildTasksApp(dependencies: TasksAppDependencies): Promise<App> {
  const { config, db, logger, accessResolver } = dependencies
  const app = await createServer({
    logger,
    // The spec names the 500 each operation answers; an outage is one more such failure.
    databaseOutage: 'route-failure',
    malformedRequestHeaders: () => TASKS_SECURITY_HEADERS,
    openApi: {
      title: 'Hearth task manager',
      description: "Tasks owned by a user, who is named by the x-user-id header or the hub's SSO token (TASKS_AUTH).",
      version: '1.0.0',
      securitySchemes: {
        userIdHeader: { type: 'apiKey', in: 'header', name: 'x-user-id', description: 'TASKS_AUTH=header or either' },
        ssoToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'TASKS_AUTH=token or either' }
      }
    }
  })

  await app.register(securityHeaders)
  await app.register(allowedHosts, { hosts: config.allowedHosts })
  await app.register(healthRoutes)
  await app.register(
    readinessRoute({ path: '/ready', checks: { database: () => pingDatabase(db, READINESS_CHECK_TIMEOUT_MS) }, security: [] })
  )
  await app.register(async function protectedRoutes(scope) {
    await scope.register(accessCheck, {
      identify: callerIdentification(config.auth, ssoTokenVerifier(dependencies)),
      resolver: accessResolver ?? createAccessResolver(createGrantsRepository(db)),
      applicationId: config.appId,
      permissionsEnabled: config.permissionsEnabled
    })
    await scope.register(taskRoutes, { tasks: cachingListReads(batchingInserts(createTasksRepository(db)), db) })
  })
  return app
}

function ssoTokenVerifier({ config, verifySsoToken }: TasksAppDependencies): SsoTokenVerifier {
  return (
    verifySsoToken ??
    createSsoTokenVerifier({ keys: remoteHubKeys(config.hubJwksUrl), issuer: config.hubIssuer, audience: config.appId })
  )
}
