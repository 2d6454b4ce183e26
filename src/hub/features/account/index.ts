import type { HubFeature } from '../../kernel/feature.js'
import type { BuiltinProvider, Kernel } from '../../kernel/kernel.js'
import { emailVerificationRoutes } from './email-verification.js'
import { accountPages } from './pages.js'
import { passwordResetRoutes } from './password-reset.js'
import { createOwnAccountRepository } from './repository.js'
import { ownAccountRoutes } from './routes.js'

/**
 * The built-in provider's accounts (its `builtin`): profile, address, password, recovery and
 * verification (issue 16), and the account page with the sections other features add. Under an
 * external provider, which owns passwords and addresses, it is not listed.
 */
export function accountFeature(kernel: Kernel, builtin: BuiltinProvider): HubFeature {
  const { db, throttle, audit, now, sessions, users } = kernel
  const { accountMail } = builtin
  const ownAccount = createOwnAccountRepository(db)
  return {
    async routes(app, declared) {
      await app.register(passwordResetRoutes, {
        db,
        accountMail,
        sessions,
        securityEvents: kernel.securityEvents,
        throttle,
        audit,
        // A first proof of the address removes the applications its earlier holder let sign in.
        removeApplications: declared.removeApplications,
        now
      })
      await app.register(emailVerificationRoutes, { db, accountMail, throttle, audit, now })
      await app.register(ownAccountRoutes, {
        db,
        ownAccount,
        users,
        sessions,
        throttle,
        mailQueue: kernel.mailQueue,
        mailTokens: accountMail.tokens,
        audit,
        publicUrl: kernel.config.publicUrl,
        now
      })
    },
    ownAccount,
    pages: ({ accountSections }) => accountPages({ ownAccount, sections: accountSections })
  }
}
