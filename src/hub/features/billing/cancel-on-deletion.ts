import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import type { Database } from '../../../shared/database/schema.js'
import { serviceUnavailable } from '../../../shared/errors.js'
import { isResourceMissing } from './stripe-client.js'
import { createStripeSubscriptionRecords } from './stripe-subscriptions.js'

export const SUBSCRIPTION_NOT_CANCELED =
  'The subscription could not be canceled at Stripe, so the account was not deleted (it would go on being charged); try again in a few minutes'
export const NO_STRIPE_TO_CANCEL =
  'The account has a Stripe subscription and this hub is no longer set up to cancel it (STRIPE_SECRET_KEY), so the account was not deleted'

/**
 * Before an account is erased (DELETE /api/account, users:delete): its live Stripe subscription is
 * canceled first, at once, so a deleted account is never charged again. Should Stripe not answer,
 * nothing is erased and the deletion can be tried again (503). A subscription Stripe no longer
 * knows is already over. The erasure then deletes the hub's copies; Stripe keeps its records.
 */
export async function cancelStripeSubscriptionOf(db: Kysely<Database>, stripe: Stripe | undefined, userId: string): Promise<void> {
  const live = await createStripeSubscriptionRecords(db).liveOf(userId)
  if (live === undefined) return
  // Erasing the account and leaving the subscription billing would charge someone the hub forgot.
  if (!stripe) throw serviceUnavailable(NO_STRIPE_TO_CANCEL)
  try {
    await stripe.subscriptions.cancel(live)
  } catch (error) {
    if (isResourceMissing(error)) return
    throw serviceUnavailable(SUBSCRIPTION_NOT_CANCELED)
  }
}
