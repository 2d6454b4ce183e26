import type { ActivityReading } from '../../kernel/audit/activity.js'
import type { AuditEventType } from '../../kernel/audit/events.js'
import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { CONSOLE_PATH } from '../../kernel/pages/console.js'
import { createReauthentication } from '../../kernel/sessions/reauthenticate.js'
import { createAdminActivity } from './activity.js'
import { adminTranslator } from './messages.js'
import { overviewOf } from './overview.js'
import { adminPages } from './pages.js'
import { queuesOf } from './queues.js'
import { adminApiRoutes, confirmFormRoute, setupRoute } from './routes.js'
import { createSetup } from './setup.js'

/**
 * The administrator's console, its own parts (docs/administration.md): the first administrator's
 * set-up link, the overview, every account's activity, the operator's queues, and the confirm
 * step the console's forms send a person to. The other sections are their features'.
 */
export function adminFeature(kernel: Kernel, readings: Readonly<Record<AuditEventType, ActivityReading>>): HubFeature {
  const { db, now, builtin } = kernel
  const activity = createAdminActivity(db, readings)
  const setup = createSetup({ db, accounts: kernel.accounts, now })
  const overview = () => overviewOf(db, now())
  const queues = () => queuesOf(db, kernel.mailQueue, kernel.securityEvents)
  return {
    async routes(app, declared) {
      await app.register(adminApiRoutes, { db, activity, now })
      await app.register(setupRoute, { setup, sessions: kernel.sessions, throttle: kernel.throttle, audit: kernel.audit, now, createsAccounts: builtin !== undefined })
      if (builtin) {
        const { users, throttle, recentSignIn, audit } = kernel
        const reauthentication = createReauthentication({ users, proofs: declared.proofs, secondFactor: declared.secondFactor, throttle, recentSignIn, audit, now })
        await app.register(confirmFormRoute, { reauthentication })
      }
    },
    pages: (declared) => adminPages({ overview, activity, queues, users: kernel.users, hasAdministrator: setup.hasAdministrator }, declared),
    consoleSections: [
      { path: CONSOLE_PATH, label: (language) => adminTranslator(language)('admin.section.overview') },
      { path: `${CONSOLE_PATH}/activity`, label: (language) => adminTranslator(language)('admin.section.activity') },
      { path: `${CONSOLE_PATH}/queues`, label: (language) => adminTranslator(language)('admin.section.queues') }
    ]
  }
}
