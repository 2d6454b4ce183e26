import type { Kysely, Selectable } from 'kysely'
import type { BillingPlansTable, Database } from '../../../shared/database/schema.js'
import { isUniqueViolation } from '../../../shared/database/unique-violation.js'

export const PLAN_INTERVALS = ['month', 'year'] as const
export type PlanInterval = (typeof PLAN_INTERVALS)[number]

/** What a plan sells: its price (none for a plan only set by hand) and the entitlements it grants. */
export interface Plan {
  id: string
  name: string
  /** In the currency's smallest unit (cents); null for a plan only set by hand. */
  price: number | null
  currency: string | null
  interval: PlanInterval | null
  stripePriceId: string | null
  entitlements: string[]
}

export const FREE_PLAN_ID = 'free'

/** Every account's plan until another is set; it always exists and grants nothing. */
export const FREE_PLAN: Plan = { id: FREE_PLAN_ID, name: 'Free', price: 0, currency: null, interval: null, stripePriceId: null, entitlements: [] }

/** A plan the operator asked for that cannot be: the message says why, for the command line. */
export class PlanError extends Error {}

const NAME_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/
const CURRENCY_PATTERN = /^[A-Z]{3}$/
const MAX_PRICE = 100_000_000

export type Plans = ReturnType<typeof createPlans>

/** The operator's plans (`npm run hub -- plans:add|plans:list|plans:remove`, docs/billing.md). */
export function createPlans(db: Kysely<Database>) {
  return {
    /** Adds a plan, or replaces the one with this id (price, entitlements...): subscribers keep it. */
    async save(plan: Plan, now: Date): Promise<void> {
      checkPlan(plan)
      const row = { ...plan, entitlements: JSON.stringify(plan.entitlements) }
      try {
        await db
          .insertInto('billingPlans')
          .values({ ...row, createdAt: now.toISOString() })
          .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
          .execute()
      } catch (error) {
        if (isUniqueViolation(error)) throw new PlanError(`Another plan already sells Stripe price ${plan.stripePriceId}`)
        throw error
      }
    },

    /** Free first, then by price (those only set by hand before those sold), then by id. */
    async list(): Promise<Plan[]> {
      const rows = await db.selectFrom('billingPlans').selectAll().orderBy('id').execute()
      return rows.map(planOfRow).sort((a, b) => Number(b.id === FREE_PLAN_ID) - Number(a.id === FREE_PLAN_ID) || (a.price ?? -1) - (b.price ?? -1))
    },

    async find(id: string): Promise<Plan | undefined> {
      const row = await db.selectFrom('billingPlans').selectAll().where('id', '=', id).executeTakeFirst()
      return row && planOfRow(row)
    },

    /** The plan a Stripe price sells: how a webhook's subscription is read as one of ours. */
    async findByStripePrice(stripePriceId: string): Promise<Plan | undefined> {
      const row = await db.selectFrom('billingPlans').selectAll().where('stripePriceId', '=', stripePriceId).executeTakeFirst()
      return row && planOfRow(row)
    },

    /**
     * Removes a plan no live subscription is on (the accounts would silently lose what they pay
     * for); false when there is no such plan. Canceled subscriptions on it read as free.
     */
    async remove(id: string): Promise<boolean> {
      if (id === FREE_PLAN_ID) throw new PlanError('The free plan always exists')
      return db.transaction().execute(async (trx) => {
        const live = await trx
          .selectFrom('billingSubscriptions')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('planId', '=', id)
          .where('status', '<>', 'canceled')
          .executeTakeFirstOrThrow()
        if (Number(live.count) > 0) throw new PlanError(`${Number(live.count)} account(s) have a live subscription to ${id}: move them to another plan first`)
        const groups = await trx
          .selectFrom('billingGroupPlans')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('planId', '=', id)
          .executeTakeFirstOrThrow()
        if (Number(groups.count) > 0) throw new PlanError(`${Number(groups.count)} group(s) have the plan ${id}: give them another first (billing:set --group)`)
        const removed = await trx.deleteFrom('billingPlans').where('id', '=', id).executeTakeFirst()
        return Number(removed.numDeletedRows) > 0
      })
    }
  }
}

export function planOfRow(row: Selectable<BillingPlansTable>): Plan {
  const { createdAt: _createdAt, entitlements, ...plan } = row
  return { ...plan, entitlements: JSON.parse(entitlements) as string[] }
}

function checkPlan(plan: Plan): void {
  if (plan.id === FREE_PLAN_ID) throw new PlanError('The free plan is built in and grants nothing; it cannot be changed')
  if (!NAME_PATTERN.test(plan.id)) throw new PlanError(`A plan id is lowercase letters, digits, "-" or "_", starting with a letter, got "${plan.id}"`)
  if (plan.name.trim() === '' || plan.name.length > 64) throw new PlanError('A plan name is 1 to 64 characters')
  for (const entitlement of plan.entitlements) {
    if (!NAME_PATTERN.test(entitlement)) throw new PlanError(`An entitlement is lowercase letters, digits, "-" or "_", starting with a letter, got "${entitlement}"`)
  }
  const priced = [plan.price, plan.currency, plan.interval].filter((value) => value !== null).length
  if (priced !== 0 && priced !== 3) throw new PlanError('A price needs --price, --currency and --interval together')
  if (plan.price !== null && (!Number.isSafeInteger(plan.price) || plan.price <= 0 || plan.price > MAX_PRICE)) {
    throw new PlanError('--price is a whole, positive number of cents (1000 for 10.00)')
  }
  if (plan.currency !== null && !CURRENCY_PATTERN.test(plan.currency)) throw new PlanError('--currency is a three-letter ISO 4217 code, as EUR')
  if (plan.stripePriceId !== null && !/^price_\w+$/.test(plan.stripePriceId)) throw new PlanError('--stripe-price is a Stripe price id (price_...)')
}
