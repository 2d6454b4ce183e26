import type { App } from '../../../shared/http/server.js'
import { HealthResponse } from '../../../shared/http/schemas.js'

export async function healthRoutes(app: App) {
  app.get(
    '/api/health',
    {
      // Probed every few seconds by orchestrators and load balancers.
      config: { logSuccess: false, anyHost: true },
      schema: { summary: 'Liveness check', tags: ['health'], response: { 200: HealthResponse } }
    },
    async () => ({ status: 'ok' as const })
  )
}
