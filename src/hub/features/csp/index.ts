import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { createCspReportRepository } from './repository.js'
import { cspReportRoutes } from './routes.js'

/** CSP violation reports: browsers post them, the hub groups and keeps them (`npm run hub -- csp:top`). */
export function cspFeature(kernel: Kernel): HubFeature {
  return {
    async routes(app) {
      await app.register(cspReportRoutes, { reports: createCspReportRepository(kernel.db), redis: kernel.redis })
    }
  }
}
