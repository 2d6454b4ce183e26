import type { App } from '../../shared/http/server.js'
import { HealthResponse } from '../schemas.js'

export async function healthRoutes(app: App) {
  app.get(
    '/health',
    {
      // Probed every few seconds by orchestrators and load balancers: its successes would bury the
      // log, so only its warnings and errors are written.
      logLevel: 'warn',
      schema: { summary: 'Liveness check (no access check)', tags: ['health'], security: [], response: { 200: HealthResponse } }
    },
    async () => ({ status: 'ok' as const })
  )
}
