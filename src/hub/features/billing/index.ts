import type { StripeConfig } from '../../../shared/billing-config.js'
import { loadOnce } from '../../../shared/load-once.js'
import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { cancelStripeSubscriptionOf } from './cancel-on-deletion.js'
import { billingClaims } from './claims.js'
import { billingDataset } from './export.js'
import { groupPlanRoutes, householdRoutes } from './group-plan-routes.js'
import { householdForm } from './household-form.js'
import { groupsById } from '../../kernel/accounts/groups.js'
import { createGroupPlans } from './group-plans.js'
import { createInvoices } from './invoices.js'
import { billingOverview } from './overview.js'
import { billingPages } from './pages.js'
import { createPlans } from './plans.js'
import { billingRoutes } from './routes.js'
import { createStripeClient } from './stripe-client.js'
import { noPaymentRoutes, stripeBillingRoutes } from './stripe-routes.js'
import { createSubscriptions } from './subscriptions.js'
import { scheduleWebhookEventPruning } from './webhook-events-pruning.js'
import { stripeWebhookRoutes } from './webhook.js'

/**
 * Plans and payments (docs/billing.md): the hub's own records, so served whichever provider signs
 * people in; payments through Stripe when the operator plugs it in (`stripe`, from
 * STRIPE_SECRET_KEY), else the plan set by hand. The plan reaches the tokens as claims.
 */
export function billingFeature(kernel: Kernel, stripe: StripeConfig | undefined): HubFeature {
  const { db, config, audit, now, logger } = kernel
  const subscriptions = createSubscriptions(db, config.billing.graceDays)
  // The Stripe library is imported as the routes are registered, so only when Stripe is configured.
  const payments = stripe && { client: loadOnce(() => createStripeClient(stripe)), webhookSecret: stripe.webhookSecret }
  const plans = createPlans(db)
  // What `GET /api/billing` and the billing page show: the same rule as the tokens' claims.
  const groupPlans = createGroupPlans(db, config.billing.graceDays)
  const overviewOf = billingOverview(subscriptions, groupPlans, createInvoices(db), now)
  return {
    async routes(app) {
      if (payments) {
        const stripe = await payments.client()
        await app.register(stripeBillingRoutes, { stripe, db, publicUrl: config.publicUrl, audit, now })
        await app.register(stripeWebhookRoutes, { stripe, webhookSecret: payments.webhookSecret, db, publicUrl: config.publicUrl, now })
        await app.register(householdRoutes, { groupPlans, now })
        await app.register(householdForm, { groupPlans, recentSignIn: kernel.recentSignIn, now })
      } else {
        await app.register(noPaymentRoutes)
      }
      await app.register(billingRoutes, { overviewOf })
      await app.register(groupPlanRoutes, { groupPlans, now })
    },
    jobs: payments ? [() => scheduleWebhookEventPruning(db, now, logger)] : [],
    claims: billingClaims(subscriptions),
    // Payment buttons only when Stripe takes payments; without it the page shows the plan set by hand.
    pages: () => billingPages({ overviewOf, plans, payments: payments !== undefined, groupsToShare: () => groupsById(db) }),
    datasets: [billingDataset(db)],
    beforeErasure: async (userId) => cancelStripeSubscriptionOf(db, await payments?.client(), userId)
  }
}
