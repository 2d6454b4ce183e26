import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { accountSsoIdentities, identityOfSession } from '../../kernel/tokens/sso-identity.js'
import { ssoRoutes } from './routes.js'

/** SSO tokens for the family's applications, with the claims the features add. */
export function ssoFeature(kernel: Kernel): HubFeature {
  const { db, config } = kernel
  return {
    async routes(app, { claims }) {
      await app.register(ssoRoutes, {
        keyring: kernel.keyring,
        issuer: config.publicUrl,
        apps: config.apps,
        identityOf: kernel.builtin ? accountSsoIdentities(db) : identityOfSession,
        addedClaims: claims,
        audit: kernel.audit,
        now: kernel.now
      })
    }
  }
}
