import type { Config } from '../shared/config.js'
import { languageOfAccount } from '../hub/kernel/language/account-language.js'
import { cancelStripeSubscriptionOf } from '../hub/features/billing/cancel-on-deletion.js'
import { createStripeClient } from '../hub/features/billing/stripe-client.js'
import { eraseAccount } from '../hub/erasure.js'
import { createSecurityEventOutbox } from '../hub/kernel/security-events/outbox.js'
import { normaliseEmail } from '../hub/kernel/accounts/credentials.js'
import { refuseLastAdministrator } from '../hub/kernel/accounts/roles.js'
import { HttpError } from '../shared/errors.js'
import { withDatabase } from './database.js'

/**
 * `users:delete --email EMAIL`: the erasure `DELETE /api/account` makes, without the password.
 * The running hub sends the confirmation and the events from the queues this writes; its
 * instances stop trusting the account's sessions within their 4 s cache. A live Stripe
 * subscription is canceled first; if it cannot be, nothing is erased (docs/billing.md).
 */
export async function deleteUser(config: Config, email: string, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const stripe = config.hub.billing.stripe && (await createStripeClient(config.hub.billing.stripe))
  const deleted = await withDatabase(config.shared, async (db) => {
    const user = await db.selectFrom('users').select(['id', 'email', 'locale']).where('email', '=', normaliseEmail(email)).executeTakeFirst()
    if (!user) return undefined
    try {
      // The hub's last administrator stays (checked again, under a lock, as it is erased).
      await refuseLastAdministrator(db, user.id)
      await cancelStripeSubscriptionOf(db, stripe, user.id)
    } catch (error) {
      if (error instanceof HttpError) return { refused: error.message }
      throw error
    }
    const outbox = createSecurityEventOutbox(db, Object.keys(config.hub.appEvents))
    try {
      await eraseAccount({ db, outbox, publicUrl: config.hub.publicUrl }, { userId: user.id, email: user.email, language: languageOfAccount(user.locale) }, new Date())
    } catch (error) {
      if (error instanceof HttpError) return { refused: error.message }
      throw error
    }
    return user
  })
  if (!deleted) {
    io.err('No account has this email')
    return 1
  }
  if ('refused' in deleted) {
    io.err(deleted.refused)
    return 1
  }
  io.out(`Deleted ${deleted.email} (id ${deleted.id}); a confirmation is queued for the address.`)
  return 0
}
