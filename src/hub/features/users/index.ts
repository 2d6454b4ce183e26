import type { FeaturesDeclared, HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { EraseAccount } from './administration.js'
import { USERS_SECTION, usersConsoleForms, usersConsolePages } from './console.js'
import { adminUserRoutes } from './routes.js'
import { type UserAdministration, createUserAdministration } from './service.js'

/**
 * The administrator's Users (docs/administration.md, "Users"): `/api/admin/users` and the
 * console's Users section, for the built-in provider's accounts. `erase` is the erasure
 * `users:delete` makes (src/hub/erasure.ts), handed in by app.ts: a feature imports no other.
 * What other features keep of an account it reads through the kernel's faces: their
 * `accountFacts` (two-step sign-in, passkeys) and the second factor's `removeFor`.
 */
export function usersFeature(kernel: Kernel, erase: EraseAccount): HubFeature {
  let users: UserAdministration | undefined
  /** Made once, from what every feature declared (the same object for `pages` and `routes`). */
  const administrationOf = (declared: FeaturesDeclared) => (users ??= createUserAdministration(kernel, declared, erase))
  return {
    async routes(app, declared) {
      const administration = administrationOf(declared)
      await app.register(adminUserRoutes, { users: administration, sessionCookies: kernel.sessionCookies })
      await app.register(usersConsoleForms, { users: administration, recentSignIn: kernel.recentSignIn })
    },
    pages: (declared) => usersConsolePages(administrationOf(declared), declared.consoleSections),
    consoleSections: [USERS_SECTION]
  }
}
