import { randomBytes } from 'node:crypto'
import type { JWTVerifyGetKey } from 'jose'
import type { Kysely } from 'kysely'
import { type PageAssets, loadPageAssets } from '../hub/kernel/pages/assets.js'
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
import { createExportRequestVerifier } from './export/verify-export-request.js'
import { callerIdentification } from './identity.js'
import { batchingInserts } from './insert-batching.js'
import { cachingListReads } from './list-cache.js'
import { accessCheck } from './plugins/access-check.js'
import { securityHeaders, tasksSecurityHeaders } from './plugins/security-headers.js'
import { createTasksRepository } from './repository.js'
import { exportRoutes } from './routes/export.js'
import { healthRoutes } from './routes/health.js'
import { securityEventRoutes } from './routes/security-events.js'
import { taskRoutes } from './routes/tasks.js'
import { createRevokedSubjects } from './security-events/revoked-subjects.js'
import { createSecurityEventVerifier } from './security-events/verify-security-event.js'
import { taskManagerPages } from './web/plugin.js'
import { createBrowserSessions } from './web/sessions.js'

export interface TasksAppDependencies {
  config: TasksConfig
  db: Kysely<Database>
  logger: Logger
  /** Overrides the grants lookup (tests use it to simulate a failing store). */
  accessResolver?: AccessResolver
  /** The hub's public keys; by default its JWKS fetched from `config.hubJwksUrl`. */
  hubKeys?: JWTVerifyGetKey
  /** The hub's SSO token check; by default one over `hubKeys`. */
  verifySsoToken?: SsoTokenVerifier
  /** The clock a security event's age is measured against (tests move it). */
  now?: () => Date
  /**
   * The HMAC keys of the pages' cookies (`tasks-session`, the CSRF token, the pending sign-in).
   * The service passes the key kept in DATA_DIR; without one, a key of this process's own, so its
   * sessions end with it.
   */
  cookieKeys?: readonly string[]
  /** The stylesheet the pages share with the hub; by default the build's (`npm run build`). */
  pageAssets?: PageAssets
}

/**
 * The task manager: security headers and the Host check on every request; health and readiness
 * outside the access check; every task route behind it. Reading this function tells how a request
 * is handled.
 */
export async function buildTasksApp(dependencies: TasksAppDependencies): Promise<App> {
  const { config, db, logger } = dependencies
  const accessResolver = dependencies.accessResolver ?? createAccessResolver(createGrantsRepository(db))
  const browserSessions = createBrowserSessions(db)
  const hubKeys = dependencies.hubKeys ?? remoteHubKeys(config.hubJwksUrl)
  const tasks = cachingListReads(batchingInserts(createTasksRepository(db)), db)
  const now = dependencies.now ?? (() => new Date())
  const revokedSubjects = createRevokedSubjects(now)
  const verifySsoToken = revokedSubjects.refusingRevoked(
    dependencies.verifySsoToken ?? createSsoTokenVerifier({ keys: hubKeys, issuer: config.hubIssuer, audience: config.appId })
  )
  const headers = tasksSecurityHeaders(config.publicUrl)
  const app = await createServer({
    logger,
    // The spec names the 500 each operation answers; an outage is one more such failure.
    databaseOutage: 'route-failure',
    malformedRequestHeaders: () => headers,
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

  await app.register(securityHeaders, { headers })
  await app.register(allowedHosts, { hosts: config.allowedHosts })
  await app.register(healthRoutes)
  await app.register(
    readinessRoute({ path: '/ready', checks: { database: () => pingDatabase(db, READINESS_CHECK_TIMEOUT_MS) }, security: [] })
  )
  // The hub's security events: proved by their signature, outside the access check.
  await app.register(securityEventRoutes, {
    db,
    tasks,
    revokedSubjects,
    browserSessions,
    verify: createSecurityEventVerifier({ keys: hubKeys, issuer: config.hubIssuer, audience: config.appId, now }),
    now
  })
  // The hub's export requests: also proved by their signature.
  await app.register(exportRoutes, {
    db,
    tasks: createTasksRepository(db),
    verify: createExportRequestVerifier({ keys: hubKeys, issuer: config.hubIssuer, audience: config.appId, now }),
    now
  })
  await app.register(async function protectedRoutes(scope) {
    await scope.register(accessCheck, {
      identify: callerIdentification(config.auth, verifySsoToken),
      resolver: accessResolver,
      applicationId: config.appId,
      permissionsEnabled: config.permissionsEnabled
    })
    await scope.register(taskRoutes, { tasks })
  })
  // The pages: signed in through the hub over OpenID Connect, with their own session cookie.
  await app.register(taskManagerPages, {
    publicUrl: config.publicUrl,
    hubIssuer: config.hubIssuer,
    clientId: config.appId,
    hubKeys,
    cookieKeys: dependencies.cookieKeys ?? [randomBytes(32).toString('base64url')],
    sessions: browserSessions,
    tasks,
    assets: dependencies.pageAssets ?? loadPageAssets(),
    access: { resolver: accessResolver, applicationId: config.appId, permissionsEnabled: config.permissionsEnabled }
  })
  return app
}
