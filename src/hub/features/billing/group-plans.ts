import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { createAuditTrail } from '../../kernel/audit/repository.js'
import { groupById, groupsNamed, groupsOf, memberIdsOf } from '../../kernel/accounts/groups.js'
import { accountPlanOf } from './entitlements.js'
import { FREE_PLAN_ID, type Plan, PlanError, createPlans, planOfRow } from './plans.js'

/**
 * The household plan (docs/billing.md, "The household plan"): at most one plan per group, whose
 * entitlements every member has beside their own. Set by hand (`billing:set --group`, the admin
 * API) until a date or for good, or paid by an administrator's Stripe subscription for as long as
 * that subscription grants its plan. Groups and their members are the kernel's; this reads them.
 */

export const GROUP_PLAN_SOURCES = ['by-hand', 'subscription'] as const
export type GroupPlanSource = (typeof GROUP_PLAN_SOURCES)[number]

export const NO_SUCH_GROUP = 'No group has this id'
export const NO_GROUP_PLAN = 'The group has no plan'
export const NO_SUBSCRIPTION_TO_SHARE = 'You have no active Stripe subscription to share: subscribe to a plan first'

/** The administrator has no subscription whose plan could pay for a group (409). */
export class NothingToShare extends Error {
  constructor() {
    super(NO_SUBSCRIPTION_TO_SHARE)
  }
}

/** A group's plan as the administrator reads it, and whether it grants its entitlements now. */
export interface GroupPlanView {
  group: { id: string; name: string }
  plan: { id: string; name: string; entitlements: string[] }
  source: GroupPlanSource
  /** The administrator whose subscription pays for it (source `subscription`). */
  paidBy: string | null
  /** When a plan set by hand ends; null for good, or for one paid by a subscription. */
  until: string | null
  /** False once the date passed, or the subscription no longer grants its plan. */
  inEffect: boolean
  updatedAt: string
}

/** A group plan that grants its entitlements now, to one of the group's members. */
export interface GroupPlanInEffect {
  group: { id: string; name: string }
  plan: Plan
  source: GroupPlanSource
  until: string | null
}

/** Who made a change: the administrator's user id, or null from the terminal. */
export type GroupPlanActor = string | null

export type GroupPlans = ReturnType<typeof createGroupPlans>

export function createGroupPlans(db: Kysely<Database>, graceDays: number) {
  /** The stored rows of these groups, each with the plan it grants now (undefined when none). */
  async function readRows(groupIds: readonly string[], now: Date) {
    if (groupIds.length === 0) return []
    const rows = await db
      .selectFrom('billingGroupPlans as gp')
      // A subscription's group plan holds only while the very subscription attached stays the subscriber's.
      .leftJoin('billingSubscriptions as s', (join) => join.onRef('s.userId', '=', 'gp.userId').onRef('s.stripeSubscriptionId', '=', 'gp.stripeSubscriptionId'))
      .select(['gp.groupId', 'gp.planId', 'gp.source', 'gp.userId', 'gp.until', 'gp.updatedAt'])
      .select(['s.planId as subscriptionPlanId', 's.status', 's.currentPeriodEnd', 's.cancelAtPeriodEnd', 's.pastDueSince'])
      .where('gp.groupId', 'in', groupIds)
      .execute()
    const planIds = [...new Set(rows.flatMap((row) => [row.planId, ...(row.subscriptionPlanId === null ? [] : [row.subscriptionPlanId])]))]
    const plans = new Map(
      planIds.length === 0 ? [] : (await db.selectFrom('billingPlans').selectAll().where('id', 'in', planIds).execute()).map((row) => [row.id, planOfRow(row)] as const)
    )
    return rows.map((row) => {
      let granted: Plan | undefined
      if (row.source === 'by-hand') {
        const plan = plans.get(row.planId)
        granted = plan && (row.until === null || Date.parse(row.until) > now.getTime()) ? plan : undefined
      } else if (row.status !== null && row.subscriptionPlanId !== null) {
        // The subscriber's own rule (grace period included): the group has what the payment grants them.
        const own = accountPlanOf(
          {
            plan: plans.get(row.subscriptionPlanId),
            status: row.status,
            currentPeriodEnd: row.currentPeriodEnd,
            cancelAtPeriodEnd: row.cancelAtPeriodEnd === 1,
            pastDueSince: row.pastDueSince,
            byHand: false
          },
          graceDays,
          now
        )
        granted = own.plan.id === FREE_PLAN_ID ? undefined : own.plan
      }
      const stored = plans.get(row.source === 'subscription' ? (row.subscriptionPlanId ?? row.planId) : row.planId)
      return { row, granted, stored }
    })
  }

  async function view(groupId: string, now: Date): Promise<GroupPlanView | undefined> {
    const group = await groupById(db, groupId)
    if (!group) return undefined
    const [read] = await readRows([groupId], now)
    if (!read) return undefined
    const { row, granted, stored } = read
    const plan = stored ?? { id: row.planId, name: row.planId, entitlements: [] }
    return {
      group,
      plan: { id: plan.id, name: plan.name, entitlements: plan.entitlements },
      source: row.source,
      paidBy: row.userId,
      until: row.until,
      inEffect: granted !== undefined,
      updatedAt: row.updatedAt
    }
  }

  return {
    /** The plans of the account's groups that grant something now, by group name. */
    async inEffectFor(userId: string, now: Date): Promise<GroupPlanInEffect[]> {
      const groups = await groupsOf(db, userId)
      const rows = await readRows(
        groups.map((group) => group.id),
        now
      )
      const byGroup = new Map(rows.map((read) => [read.row.groupId, read]))
      return groups.flatMap((group) => {
        const read = byGroup.get(group.id)
        if (!read?.granted) return []
        return [{ group, plan: read.granted, source: read.row.source, until: read.row.until }]
      })
    },

    view,

    async groupExists(groupId: string): Promise<boolean> {
      return (await groupById(db, groupId)) !== undefined
    },

    /** The group of this name (compared as group names are), for the terminal. */
    async groupNamed(name: string): Promise<{ id: string; name: string } | undefined> {
      return (await groupsNamed(db, [name])).groups[0]
    },

    /**
     * Gives a group a plan by hand, until `until` or for good, replacing whatever plan it had
     * (a subscription's included); `free` removes its plan. Undefined when there is no such group.
     */
    async setByHand(groupId: string, planId: string, until: Date | null, by: GroupPlanActor, now: Date): Promise<GroupPlanView | undefined> {
      if (until !== null && until.getTime() <= now.getTime()) throw new PlanError('--until must be in the future')
      const done = await db.transaction().execute(async (trx) => {
        const group = await groupById(trx, groupId)
        if (!group) return false
        if (!(await createPlans(trx).find(planId))) throw new PlanError(`No plan has the id ${planId} (npm run hub -- plans:list)`)
        if (planId === FREE_PLAN_ID) {
          await trx.deleteFrom('billingGroupPlans').where('groupId', '=', groupId).execute()
        } else {
          const values = { planId, source: 'by-hand' as const, userId: null, stripeSubscriptionId: null, until: until?.toISOString() ?? null, updatedAt: now.toISOString() }
          await trx
            .insertInto('billingGroupPlans')
            .values({ groupId, ...values, createdAt: now.toISOString() })
            .onConflict((conflict) => conflict.column('groupId').doUpdateSet(values))
            .execute()
        }
        await recordForMembers(trx, group, { plan: planId, source: 'administrator', by }, now)
        return true
      })
      if (!done) return undefined
      return planId === FREE_PLAN_ID ? undefined : view(groupId, now)
    },

    /**
     * An administrator's Stripe subscription pays for the group's plan (POST /api/billing/household):
     * it replaces the group's plan, and a subscription covers one group, so the group it covered
     * before loses it. Undefined when there is no such group.
     */
    async attachSubscription(groupId: string, userId: string, now: Date): Promise<GroupPlanView | undefined> {
      const done = await db.transaction().execute(async (trx) => {
        const group = await groupById(trx, groupId)
        if (!group) return false
        const own = await trx
          .selectFrom('billingSubscriptions')
          .select(['planId', 'stripeSubscriptionId', 'status', 'currentPeriodEnd', 'cancelAtPeriodEnd', 'pastDueSince'])
          .where('userId', '=', userId)
          .where('stripeSubscriptionId', 'is not', null)
          .executeTakeFirst()
        const plan = own && (await createPlans(trx).find(own.planId))
        const grants =
          own !== undefined &&
          accountPlanOf({ plan, status: own.status, currentPeriodEnd: own.currentPeriodEnd, cancelAtPeriodEnd: own.cancelAtPeriodEnd === 1, pastDueSince: own.pastDueSince, byHand: false }, graceDays, now).plan
            .id !== FREE_PLAN_ID
        if (!own || !grants) throw new NothingToShare()
        const earlier = await trx.selectFrom('billingGroupPlans').select('groupId').where('userId', '=', userId).where('groupId', '<>', groupId).execute()
        for (const { groupId: other } of earlier) await removeGroupPlan(trx, other, { plan: FREE_PLAN_ID, source: 'administrator', by: userId }, now)
        const values = { planId: own.planId, source: 'subscription' as const, userId, stripeSubscriptionId: own.stripeSubscriptionId, until: null, updatedAt: now.toISOString() }
        await trx
          .insertInto('billingGroupPlans')
          .values({ groupId, ...values, createdAt: now.toISOString() })
          .onConflict((conflict) => conflict.column('groupId').doUpdateSet(values))
          .execute()
        await recordForMembers(trx, group, { plan: own.planId, source: 'subscription', by: userId }, now)
        return true
      })
      return done ? view(groupId, now) : undefined
    },

    /** Removes the group's plan, whichever its source; false when it had none (or there is no such group). */
    async remove(groupId: string, by: GroupPlanActor, now: Date): Promise<boolean> {
      return db.transaction().execute((trx) => removeGroupPlan(trx, groupId, { plan: FREE_PLAN_ID, source: 'administrator', by }, now))
    },

    /** The group the account's subscription pays for, if any (GET /api/billing's `household`). */
    async paidBy(userId: string): Promise<{ id: string; name: string } | undefined> {
      return db
        .selectFrom('billingGroupPlans as gp')
        .innerJoin('groups as g', 'g.id', 'gp.groupId')
        .select(['g.id', 'g.name'])
        .where('gp.userId', '=', userId)
        .where('gp.source', '=', 'subscription')
        .executeTakeFirst()
    }
  }
}

/**
 * The webhook's side (stripe-events.ts): a subscription's new state reaches the group it pays
 * for. Its plan follows a change of plan; once it is canceled the group loses the plan at once.
 */
export async function followSubscription(trx: Kysely<Database>, subscriptionId: string, planId: string, canceled: boolean, now: Date): Promise<void> {
  const rows = await trx.selectFrom('billingGroupPlans').select(['groupId', 'userId']).where('stripeSubscriptionId', '=', subscriptionId).execute()
  for (const { groupId, userId } of rows) {
    if (canceled) {
      await removeGroupPlan(trx, groupId, { plan: FREE_PLAN_ID, source: 'stripe', by: userId }, now)
    } else {
      await trx.updateTable('billingGroupPlans').set({ planId, updatedAt: now.toISOString() }).where('groupId', '=', groupId).where('planId', '<>', planId).execute()
    }
  }
}

async function removeGroupPlan(trx: Kysely<Database>, groupId: string, detail: MemberDetail, now: Date): Promise<boolean> {
  const group = await groupById(trx, groupId)
  const removed = await trx.deleteFrom('billingGroupPlans').where('groupId', '=', groupId).executeTakeFirst()
  if (Number(removed.numDeletedRows) === 0 || !group) return false
  await recordForMembers(trx, group, detail, now)
  return true
}

interface MemberDetail {
  plan: string
  /** `administrator` (by hand), `subscription` (an administrator's payment) or `stripe` (the payment ended). */
  source: 'administrator' | 'subscription' | 'stripe'
  by: string | null
}

/** A change to the group's plan is on every member's trail, naming the administrator (issue 29's rule). */
async function recordForMembers(trx: Kysely<Database>, group: { id: string; name: string }, detail: MemberDetail, now: Date): Promise<void> {
  const audit = createAuditTrail(trx)
  // `by` absent from the terminal, as on the other administrators' events.
  const { by, ...rest } = detail
  for (const userId of await memberIdsOf(trx, group.id)) {
    await audit.record({ userId, type: 'billing.group-plan.changed', detail: { groupId: group.id, group: group.name, ...rest, ...(by === null ? {} : { by }) } }, now)
  }
}
