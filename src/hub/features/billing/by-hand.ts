import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { createAuditTrail } from '../../kernel/audit/repository.js'
import { normaliseEmail } from '../../kernel/accounts/credentials.js'
import { FREE_PLAN_ID, PlanError, createPlans } from './plans.js'
import { createSubscriptions } from './subscriptions.js'

export interface PlanSetByHand {
  email: string
  planId: string
  /** The end of the subscription; null for good. */
  until: Date | null
}

/**
 * `npm run hub -- billing:set`: the operator gives a built-in account a plan, with no payment
 * provider involved (docs/billing.md). Setting `free` ends whatever the account had. The audit
 * trail records it as the administrator's doing. Undefined when no account has the address.
 */
export async function setPlanByHand(db: Kysely<Database>, { email, planId, until }: PlanSetByHand, now: Date): Promise<{ userId: string } | undefined> {
  if (until !== null && until.getTime() <= now.getTime()) throw new PlanError('--until must be in the future')
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('email', '=', normaliseEmail(email)).executeTakeFirst()
    if (!user) return undefined
    if (!(await createPlans(trx).find(planId))) throw new PlanError(`No plan has the id ${planId} (npm run hub -- plans:list)`)
    // The free plan is no subscription at all: the account's record goes, as an erased one's would.
    if (planId === FREE_PLAN_ID) await trx.deleteFrom('billingSubscriptions').where('userId', '=', user.id).execute()
    else await createSubscriptions(trx, 0).setByHand(user.id, planId, until, now)
    await createAuditTrail(trx).record({ userId: user.id, type: 'billing.plan.changed', detail: { plan: planId, status: 'active', source: 'administrator' } }, now)
    return { userId: user.id }
  })
}
