import { Type } from 'typebox'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { SUBSCRIPTION_STATUSES } from './entitlements.js'
import { GROUP_PLAN_SOURCES } from './group-plans.js'
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
    { description: 'Your own plan in effect (a group’s plan is under groupPlans)' }
  ),
  status: Type.Enum(SUBSCRIPTION_STATUSES, { description: 'The subscription\'s own status: past_due beyond the grace period reads as plan free' }),
  entitlements: Type.Array(Type.String(), { description: 'What your own plan and your groups’ plans grant together: what applications read' }),
  entitlementSources: Type.Array(
    Type.Object({
      entitlement: Type.String(),
      from: Type.Union([Type.Literal('own'), Type.Literal('group')]),
      plan: Type.String({ description: 'The id of the plan that grants it' }),
      group: Type.Optional(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'The group whose plan grants it' }))
    }),
    { description: 'Each grant of each entitlement: your own plan first, then your groups’ by name' }
  ),
  groupPlans: Type.Array(
    Type.Object({
      group: Type.Object({ id: Type.String(), name: Type.String() }),
      plan: Type.Object({ id: Type.String(), name: Type.String() }),
      source: Type.Enum(GROUP_PLAN_SOURCES),
      until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()])
    }),
    { description: 'Your groups’ plans in effect (the household plan), by group name' }
  ),
  household: Type.Union([Type.Object({ group: Type.Object({ id: Type.String(), name: Type.String() }) }), Type.Null()], {
    description: 'The group your own Stripe subscription pays for, if any'
  }),
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
