import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { invitationForms } from './forms.js'
import { invitationsPages, invitationsSection } from './pages.js'
import { invitationRoutes } from './routes.js'
import { createInvitations } from './service.js'

/**
 * Invitations (issue 29; docs/administration.md, "Invitations"): the admin API, the console's
 * section and its forms, and the `/invite` page a link opens, on one service with
 * `invitations:add`. Using one is sign-up's, through the kernel (`acceptInvitation`). The built-in
 * provider's only: an external one keeps its own people.
 */
export function invitationsFeature(kernel: Kernel): HubFeature {
  const { db, audit, recentSignIn, now, config } = kernel
  const invitations = createInvitations(db, { signup: config.signup, publicUrl: config.publicUrl, now })
  return {
    async routes(app) {
      await app.register(invitationRoutes, { invitations, audit, db })
      await app.register(invitationForms, { invitations, audit, recentSignIn, db })
    },
    pages: (declared) => invitationsPages({ invitations, db, signup: config.signup }, declared),
    consoleSections: [invitationsSection]
  }
}
