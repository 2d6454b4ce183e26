import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { groupsClaims } from './claims.js'
import { groupsDataset } from './export.js'
import { groupForms } from './forms.js'
import { groupsPages, groupsSection } from './pages.js'
import { groupRoutes } from './routes.js'
import { createGroups } from './service.js'

/**
 * Groups and their members (issue 29; docs/administration.md, "Groups"): the admin API, the
 * console's section and its forms, on one service. Applications read the names (issue 30).
 */
export function groupsFeature(kernel: Kernel): HubFeature {
  const groups = createGroups(kernel.db, kernel.now)
  const { audit, recentSignIn } = kernel
  return {
    async routes(app) {
      await app.register(groupRoutes, { groups, audit })
      await app.register(groupForms, { groups, audit, recentSignIn })
    },
    pages: (declared) => groupsPages(groups, declared),
    consoleSections: [groupsSection],
    // The names of a person's groups, for applications that map roles from them (docs/oidc.md).
    claims: groupsClaims(kernel.db),
    // A person's memberships go with their data (docs/privacy.md, "Export").
    datasets: [groupsDataset(kernel.db)]
  }
}
