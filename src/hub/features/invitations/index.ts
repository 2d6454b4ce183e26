import type { HubFeature } from '../../kernel/feature.js'
import type { BuiltinProvider, Kernel } from '../../kernel/kernel.js'
import { invitationForms } from './forms.js'
import { invitationsPages, invitationsSection } from './pages.js'
import { invitationPasskeyRoutes } from './passkey-routes.js'
import { invitationRoutes } from './routes.js'
import { createInvitations } from './service.js'

/**
 * Invitations (issue 29; docs/administration.md, "Invitations"): the admin API, the console's
 * section and its forms, and the `/invite` page a link opens, on one service with
 * `invitations:add`. Using one with a password is sign-up's, through the kernel
 * (`acceptInvitation`); with a passkey, this feature's, on the ceremony the passkeys feature
 * declares (`firstPasskey`). The built-in provider's only: an external one keeps its own people.
 */
export function invitationsFeature(kernel: Kernel, builtin: BuiltinProvider): HubFeature {
  const { db, audit, recentSignIn, now, config } = kernel
  const invitations = createInvitations(db, { signup: config.signup, publicUrl: config.publicUrl, now })
  return {
    async routes(app, { firstPasskey }) {
      await app.register(invitationRoutes, { invitations, audit, db })
      await app.register(invitationForms, { invitations, audit, recentSignIn, db })
      if (firstPasskey) {
        const { sessions, sessionCookies, users, throttle } = kernel
        const { idTokens, newDeviceNotices } = builtin
        await app.register(invitationPasskeyRoutes, { db, users, firstPasskey, throttle, signup: config.signup, sessions, sessionCookies, audit, now, idTokens, newDeviceNotices })
      }
    },
    pages: (declared) => invitationsPages({ invitations, db, signup: config.signup, passkeys: declared.firstPasskey !== undefined }, declared),
    consoleSections: [invitationsSection]
  }
}
