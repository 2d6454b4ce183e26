import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { adminClientRoutes } from './admin-routes.js'
import { connectedApplicationsSection } from './applications-section.js'
import { createOidcClients } from './clients.js'
import { APPLICATIONS_SECTION, applicationsConsolePages, applicationsConsoleRoutes } from './console.js'
import { createConnectedApplications, removeApplicationsOfEarlierHolder } from './connected-applications.js'
import { builtinProviderAccounts, externalProviderAccounts } from './provider-accounts.js'
import { scheduleProviderRecordPruning } from './provider-adapter.js'
import { oidcProviderRoutes } from './routes.js'

/**
 * The OpenID Connect provider (issue 19, docs/oidc.md): any application signs in with the hub.
 * Consent decisions go to the hub's consent log (the privacy feature declares it); the account
 * page lists the applications connected; a first proof of an address removes those its earlier
 * holder connected, grants and remembered consents. Administrators register the applications
 * from the admin API and the console, as `clients:*` does from the terminal.
 */
export function oidcFeature(kernel: Kernel): HubFeature {
  const { db, config, now, logger, builtin } = kernel
  const clients = createOidcClients(db)
  const connectedApplications = createConnectedApplications(db, now)
  return {
    async routes(app, { claims, consents, consoleSections }, shell) {
      if (!consents) throw new Error('The OpenID Connect provider records consent in the consent log: list the feature that keeps it')
      await app.register(oidcProviderRoutes, {
        issuer: config.publicUrl,
        db,
        clients,
        connectedApplications,
        keyring: kernel.keyring,
        cookieKeys: kernel.cookieKeys,
        accountOf: builtin ? builtinProviderAccounts(db) : externalProviderAccounts(db, now),
        addedClaims: claims,
        sessions: kernel.sessions,
        privacy: consents.log,
        audit: kernel.audit,
        assets: kernel.pageAssets,
        accountPages: builtin !== undefined,
        behindProxy: config.trustedProxies.length > 0,
        now
      })
      // The administrators' side of the applications (docs/administration.md, "Applications"): the API and the console's forms.
      await app.register(adminClientRoutes, { clients, audit: kernel.audit, now })
      await app.register(applicationsConsoleRoutes, {
        clients,
        audit: kernel.audit,
        recentSignIn: kernel.recentSignIn,
        sections: consoleSections,
        shell,
        issuer: config.publicUrl,
        now
      })
    },
    consoleSections: [APPLICATIONS_SECTION],
    pages: ({ consoleSections }) => applicationsConsolePages(clients, consoleSections),
    jobs: [() => scheduleProviderRecordPruning(db, now, logger)],
    accountSections: [connectedApplicationsSection(connectedApplications)],
    removeApplications: ({ consents }) => {
      if (!consents) throw new Error('Removing connected applications withdraws their consents: list the feature that keeps the consent log')
      return (trx, userId, at) => removeApplicationsOfEarlierHolder(trx, userId, at, consents.withdrawGranted)
    },
    applicationNames: async () => Object.fromEntries((await clients.list()).map((client) => [client.id, client.name]))
  }
}
