import type { Insertable, Kysely } from 'kysely'
import type { BillingSubscriptionsTable, Database } from '../../../shared/database/schema.js'
import { type Param, prepareQuery } from '../../../shared/database/prepared-query.js'
import { type AccountPlan, type EntitlementSource, type Entitlements, type StoredSubscription, accountPlanOf, unionOf } from './entitlements.js'
import { type GroupPlanInEffect, createGroupPlans } from './group-plans.js'
import { planOfRow } from './plans.js'

export type Subscriptions = ReturnType<typeof createSubscriptions>

/** Accounts' subscriptions, and what each grants now (docs/billing.md). */
export function createSubscriptions(db: Kysely<Database>, graceDays: number) {
  const groupPlans = createGroupPlans(db, graceDays)
  // Read for every token an application is given.
  const subscriptionOf = prepareQuery(db, (param: Param<{ userId: string }>) =>
    db
      .selectFrom('billingSubscriptions as s')
      .leftJoin('billingPlans as p', 'p.id', 's.planId')
      .select(['s.status', 's.currentPeriodEnd', 's.cancelAtPeriodEnd', 's.pastDueSince', 's.stripeSubscriptionId'])
      .select(['p.id', 'p.name', 'p.price', 'p.currency', 'p.interval', 'p.stripePriceId', 'p.entitlements', 'p.createdAt'])
      .where('s.userId', '=', param('userId'))
  )

  async function storedOf(userId: string): Promise<StoredSubscription | undefined> {
    const row = await subscriptionOf.first({ userId })
    if (!row) return undefined
    const { id, name, price, currency, interval, stripePriceId, entitlements, createdAt } = row
    const plan = id === null || name === null || entitlements === null || createdAt === null ? undefined : planOfRow({ id, name, price, currency, interval, stripePriceId, entitlements, createdAt })
    return {
      plan,
      status: row.status,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd === 1,
      pastDueSince: row.pastDueSince,
      byHand: row.stripeSubscriptionId === null
    }
  }

  return {
    /** One read: the subscription joined to its plan. */
    async accountPlan(userId: string, now: Date): Promise<AccountPlan> {
      return accountPlanOf(await storedOf(userId), graceDays, now)
    },

    /**
     * The account's own plan, its groups' plans in effect, and the union of what they grant
     * (the household rule, entitlements.ts): what `GET /api/billing` shows.
     */
    async householdPlan(userId: string, now: Date): Promise<{ own: AccountPlan; groups: GroupPlanInEffect[]; entitlements: Entitlements; sources: EntitlementSource[] }> {
      const [stored, groups] = await Promise.all([storedOf(userId), groupPlans.inEffectFor(userId, now)])
      const own = accountPlanOf(stored, graceDays, now)
      const { sources, ...entitlements } = unionOf(own, groups)
      return { own, groups, entitlements, sources }
    },

    /** The claims applications read (docs/billing.md), as of `now`: the own plan and the groups', united. */
    async entitlementsOf(userId: string, now: Date): Promise<Entitlements> {
      const [stored, groups] = await Promise.all([storedOf(userId), groupPlans.inEffectFor(userId, now)])
      const { plan, entitlements } = unionOf(accountPlanOf(stored, graceDays, now), groups)
      return { plan, entitlements }
    },

    /**
     * Sets an account's plan by hand (`billing:set`, no payment provider): active until `until`,
     * or for good. It replaces whatever the account had, a Stripe subscription's record included.
     */
    async setByHand(userId: string, planId: string, until: Date | null, now: Date): Promise<void> {
      await saveSubscription(db, userId, {
        planId,
        status: 'active',
        currentPeriodEnd: until?.toISOString() ?? null,
        cancelAtPeriodEnd: 0,
        pastDueSince: null,
        stripeSubscriptionId: null,
        stripeStateAt: null,
        updatedAt: now.toISOString()
      })
    }
  }
}

/** The account's one subscription row, whatever it held before (by hand or from Stripe). */
export async function saveSubscription(db: Kysely<Database>, userId: string, values: Omit<Insertable<BillingSubscriptionsTable>, 'userId'>): Promise<void> {
  await db
    .insertInto('billingSubscriptions')
    .values({ userId, ...values })
    .onConflict((conflict) => conflict.column('userId').doUpdateSet(values))
    .execute()
}
