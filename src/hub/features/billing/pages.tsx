import type { HubPage } from '../../kernel/pages/shell.js'
import type { BillingOverviewOf } from './overview.js'
import type { Plans } from './plans.js'
import { BillingPage } from './views/billing.js'

/** The billing page's reads (docs/billing.md); `payments` when Stripe is configured, else no payment button is shown. */
export interface BillingPagesOptions {
  overviewOf: BillingOverviewOf
  plans: Pick<Plans, 'list'>
  payments: boolean
}

export function billingPages({ overviewOf, plans, payments }: BillingPagesOptions): HubPage[] {
  return [
    {
      path: '/billing',
      signedIn: true,
      async render({ request, reply, session, shell }) {
        const [overview, allPlans] = await Promise.all([overviewOf(session.userId), payments ? plans.list() : []])
        // Only a plan Stripe sells can be subscribed to; the one in effect is already had.
        const offers = allPlans.filter((plan) => plan.stripePriceId !== null && plan.id !== overview.plan.id)
        return <BillingPage context={await shell.contextOf(request, reply, session)} overview={overview} offers={offers} payments={payments} />
      }
    }
  ]
}
