import { type Kysely, PostgresAdapter } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { StoredStripeState, StripeSubscriptionState } from './stripe-state.js'
import { saveSubscription } from './subscriptions.js'

export type StripeSubscriptionRecords = ReturnType<typeof createStripeSubscriptionRecords>

/** The account's subscription row as the webhook reads and writes it (subscriptions.ts reads it for entitlements). */
export function createStripeSubscriptionRecords(db: Kysely<Database>) {
  const onPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    /**
     * Inside the event's transaction: on PostgreSQL the row is locked, so two events for one
     * account are compared and applied one after the other. SQLite runs one writer at a time.
     */
    async lockedOf(userId: string): Promise<StoredStripeState | undefined> {
      const row = await db
        .selectFrom('billingSubscriptions')
        .select(['stripeSubscriptionId', 'planId', 'status', 'currentPeriodEnd', 'pastDueSince', 'stripeStateAt'])
        .where('userId', '=', userId)
        .$if(onPostgres, (query) => query.forUpdate())
        .executeTakeFirst()
      if (!row) return undefined
      const { stripeSubscriptionId, stripeStateAt, ...rest } = row
      return { ...rest, subscriptionId: stripeSubscriptionId, stateAt: stripeStateAt }
    },

    async save(userId: string, state: StripeSubscriptionState, pastDueSince: string | null, now: Date): Promise<void> {
      await saveSubscription(db, userId, {
        planId: state.planId,
        status: state.status,
        currentPeriodEnd: state.currentPeriodEnd,
        cancelAtPeriodEnd: state.cancelAtPeriodEnd ? 1 : 0,
        pastDueSince,
        stripeSubscriptionId: state.subscriptionId,
        stripeStateAt: state.stateAt,
        updatedAt: now.toISOString()
      })
    },

    /** A failed payment of a live subscription: past due from `at`, the grace period counting. */
    async markPastDue(userId: string, at: string, now: Date): Promise<void> {
      await db
        .updateTable('billingSubscriptions')
        .set({ status: 'past_due', pastDueSince: at, stripeStateAt: at, updatedAt: now.toISOString() })
        .where('userId', '=', userId)
        .execute()
    },

    /** The account's Stripe subscription that still runs (bills, or will once paid), if any. */
    async liveOf(userId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('billingSubscriptions')
        .select('stripeSubscriptionId')
        .where('userId', '=', userId)
        .where('stripeSubscriptionId', 'is not', null)
        .where('status', '<>', 'canceled')
        .executeTakeFirst()
      return row?.stripeSubscriptionId ?? undefined
    }
  }
}
