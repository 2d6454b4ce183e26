import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ErasureStep } from '../../kernel/records/erasure.js'
import { accountDeletionRoutes } from './routes.js'

/**
 * `DELETE /api/account` (docs/account.md, "Deletion"): runs every part's erasure step (`steps`,
 * the list `users:delete` runs too), after what the features declare must come first.
 */
export function deletionFeature(kernel: Kernel, steps: readonly ErasureStep[]): HubFeature {
  const { builtin } = kernel
  return {
    async routes(app, { beforeErasure }) {
      await app.register(accountDeletionRoutes, {
        db: kernel.db,
        outbox: kernel.securityEvents,
        publicUrl: kernel.config.publicUrl,
        steps,
        builtin: builtin ? { users: kernel.users, throttle: kernel.throttle } : undefined,
        sessions: kernel.sessions,
        sessionsRepository: kernel.sessionsRepository,
        sessionCookies: kernel.sessionCookies,
        beforeErasure,
        now: kernel.now
      })
    }
  }
}
