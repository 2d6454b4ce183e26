import type { HubPage } from '../../kernel/pages/shell.js'
import type { BillingOverviewOf } from './overview.js'
import type { Plans } from './plans.js'
import { Type } from 'typebox'
import { HOUSEHOLD_ERRORS } from './household-form.js'
import { BillingPage } from './views/billing.js'

/** The billing page's reads (docs/billing.md); `payments` when Stripe is configured, else no payment button is shown. */
export interface BillingPagesOptions {
  overviewOf: BillingOverviewOf
  plans: Pick<Plans, 'list'>
  payments: boolean
  /** Every group, for the administrator's household form. */
  groupsToShare: () => Promise<{ id: string; name: string }[]>
}

const OutcomeQuery = Type.Object({ notice: Type.Optional(Type.Unknown()), error: Type.Optional(Type.Unknown()) })

export function billingPages({ overviewOf, plans, payments, groupsToShare }: BillingPagesOptions): HubPage[] {
  return [
    {
      path: '/billing',
      signedIn: true,
      querystring: OutcomeQuery,
      async render({ request, reply, session, shell }) {
        const context = await shell.contextOf(request, reply, session)
        // The household form is an administrator's, and only where Stripe takes payments.
        const sharing = payments && context.administrator === true
        const [overview, allPlans, groups] = await Promise.all([overviewOf(session.userId), payments ? plans.list() : [], sharing ? groupsToShare() : undefined])
        // Only a plan Stripe sells can be subscribed to; the one in effect is already had.
        const offers = allPlans.filter((plan) => plan.stripePriceId !== null && plan.id !== overview.plan.id)
        const { notice, error } = (request.query ?? {}) as { notice?: unknown; error?: unknown }
        const household = groups && {
          groups,
          csrf: reply.formCsrfToken(),
          notice: notice === 'household',
          error: HOUSEHOLD_ERRORS.find((known) => known === error)
        }
        return <BillingPage context={context} overview={overview} offers={offers} payments={payments} household={household} />
      }
    }
  ]
}
