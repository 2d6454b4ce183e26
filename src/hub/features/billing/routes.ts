import { Type } from 'typebox'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { SUBSCRIPTION_STATUSES } from './entitlements.js'
import { INVOICES_SHOWN } from './invoices.js'
import type { BillingOverviewOf } from './overview.js'
import { PLAN_INTERVALS } from './plans.js'

const BillingResponse = Type.Object({
  plan: Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      price: Type.Union([Type.Integer({ description: "In the currency's smallest unit (cents); null for a plan only set by hand" }), Type.Null()]),
      currency: Type.Union([Type.String({ description: 'ISO 4217' }), Type.Null()]),
      interval: Type.Union([Type.Enum(PLAN_INTERVALS), Type.Null()])
    },
    { description: 'The plan in effect, the one the entitlements come from' }
  ),
  status: Type.Enum(SUBSCRIPTION_STATUSES, { description: 'The subscription\'s own status: past_due beyond the grace period reads as plan free' }),
  entitlements: Type.Array(Type.String()),
  currentPeriodEnd: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  cancelAtPeriodEnd: Type.Boolean(),
  invoices: Type.Array(
    Type.Object({
      id: Type.String({ description: "Stripe's invoice id" }),
      amount: Type.Integer({ description: "In the currency's smallest unit" }),
      currency: Type.String(),
      paidAt: Type.String({ format: 'date-time' }),
      url: Type.Union([Type.String({ description: "Stripe's hosted invoice page" }), Type.Null()])
    }),
    { description: `Paid invoices, newest first, the latest ${INVOICES_SHOWN}` }
  )
})

/**
 * A person's own billing (issue 22). Every route below `/api/billing` needs a session but Stripe's
 * webhook, and so do the paths there that match none: signed out, they answer 401, not 404.
 */
export async function billingRoutes(app: App, { overviewOf }: { overviewOf: BillingOverviewOf }) {
  app.unknownPaths('/api/billing', { session: 'required' })
  app.get(
    '/api/billing',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Your plan in effect, what it entitles you to, and your latest paid invoices',
        tags: ['billing'],
        response: { 200: BillingResponse, ...errorResponses(401) }
      }
    },
    async (request) => overviewOf(sessionOf(request).userId)
  )
}
