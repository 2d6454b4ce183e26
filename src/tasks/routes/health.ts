import type { App } from '../../shared/http/server.js'
import { HealthResponse } from '../schemas.js'

export async function healthRoutes(app: App) {
  app.get(
    '/health',
    {
      // Probed every few seconds by orchestrators and load balancers.
      config: { logSuccess: false, anyHost: true },
      schema: { summary: 'Liveness check (no access check)', tags: ['health'], security: [], response: { 200: HealthResponse } }
    },
    async () => ({ status: 'ok' as const })
  )
}
