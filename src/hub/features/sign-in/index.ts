import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { accountSessionRoutes } from './account-sessions.js'
import { accountRoutes, signInNotServed } from './accounts.js'
import { refreshRoutes } from './refresh.js'

/**
 * Signing in and out: sign-up and login for the built-in provider's accounts (asking the second
 * factor the features declare), refreshing a session, and a person's sessions, whichever provider.
 */
export function signInFeature(kernel: Kernel): HubFeature {
  const { sessions, sessionCookies, audit, now, builtin } = kernel
  const signInDeps = { sessions, sessionCookies, audit, now }
  return {
    async routes(app, { secondFactor }) {
      if (builtin) {
        await app.register(accountRoutes, {
          secondFactor,
          ...signInDeps,
          accounts: kernel.accounts,
          idTokens: builtin.idTokens,
          newDeviceNotices: builtin.newDeviceNotices,
          throttle: kernel.throttle,
          accountMail: builtin.accountMail,
          signup: kernel.config.signup,
          db: kernel.db
        })
      } else {
        signInNotServed(app)
      }
      await app.register(refreshRoutes, signInDeps)
      await app.register(accountSessionRoutes, { accountSessions: kernel.accountSessions, sessionCookies, audit })
    }
  }
}
