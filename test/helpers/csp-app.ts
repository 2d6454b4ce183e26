import type { Kysely } from 'kysely'
import type { Database } from '../../src/shared/database/schema.js'
import { type App, createServer } from '../../src/shared/http/server.js'
import { createLogger } from '../../src/shared/logging.js'
import { createCspReportRepository } from '../../src/hub/features/csp/repository.js'
import { type CspReportRoutesOptions, cspReportRoutes } from '../../src/hub/features/csp/routes.js'

export interface TestCspAppOptions extends Omit<CspReportRoutesOptions, 'reports'> {
  maxStoredViolations?: number
}

/** The shared Fastify base with the CSP report plugin, as the hub registers it. */
export async function buildTestCspApp(db: Kysely<Database>, options: TestCspAppOptions = {}): Promise<App> {
  const { maxStoredViolations, ...routeOptions } = options
  const app = await createServer({
    logger: createLogger('silent'),
    openApi: { title: 'CSP reports under test', description: 'test', version: '0.0.0' }
  })
  await app.register(cspReportRoutes, { reports: createCspReportRepository(db, { maxStoredViolations }), ...routeOptions })
  return app
}
