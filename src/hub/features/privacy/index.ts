import type { FastifyRequest } from 'fastify'
import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { privacyDatasets } from './export.js'
import { privacyPages } from './pages.js'
import { withdrawGrantedConsents } from './repository.js'
import { privacyRoutes } from './routes.js'
import { createPrivacyService } from './service.js'

/**
 * Privacy settings and consent (issue 4): its routes and page, its records in the export, and the
 * hub's consent log, which the features asking for consent record in.
 */
export function privacyFeature(kernel: Kernel): HubFeature {
  const { db, config } = kernel
  const privacy = createPrivacyService(db, Object.keys(config.apps))
  // Behind the session stage by path: the user is the session's.
  const userOf = (request: FastifyRequest) => sessionOf(request).userId
  return {
    async routes(app) {
      await app.register(privacyRoutes, { privacy, userOf })
    },
    pages: () => privacyPages(privacy),
    datasets: privacyDatasets(db, privacy),
    consents: { log: privacy, withdrawGranted: withdrawGrantedConsents }
  }
}
