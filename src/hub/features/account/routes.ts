import type { App } from '../../../shared/http/server.js'
import type { OwnAccountDependencies } from './dependencies.js'
import { emailChangeRoutes } from './email-change.js'
import { passwordChangeRoutes } from './password-change.js'
import { profileRoutes } from './profile.js'

/**
 * A person's own account: profile, password and address (issue 16), for the built-in provider's
 * accounts only; under an external provider, which owns all three, these paths answer 404.
 */
export async function ownAccountRoutes(app: App, deps: OwnAccountDependencies) {
  await app.register(profileRoutes, deps)
  await app.register(passwordChangeRoutes, deps)
  await app.register(emailChangeRoutes, deps)
}
