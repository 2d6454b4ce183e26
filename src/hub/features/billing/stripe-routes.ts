import type { FastifyContextConfig } from 'fastify'
import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import { Type } from 'typebox'
import type { Database } from '../../../shared/database/schema.js'
import { badRequest, notFound } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { conflict } from '../../kernel/http/http-errors.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { createBillingCustomers, customerFor } from './customers.js'
import { HOUSEHOLD_PATH, STRIPE_WEBHOOK_PATH } from './paths.js'
import { FREE_PLAN_ID, createPlans } from './plans.js'
import { callStripe } from './stripe-client.js'
import { createStripeSubscriptionRecords } from './stripe-subscriptions.js'

export const CHECKOUT_PATH = '/api/billing/checkout'
export const PORTAL_PATH = '/api/billing/portal'

export const NO_PAYMENTS = 'This hub takes no payments: plans are set by its operator (docs/billing.md)'
export const ALREADY_SUBSCRIBED = 'You have a subscription already: change or cancel it under "Manage billing"'
export const NO_CUSTOMER = 'You have not paid through Stripe yet: subscribe to a plan first'

const CheckoutBody = Type.Object(
  { plan: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_-]*$', description: 'The id of the plan to subscribe to' }) },
  { additionalProperties: false }
)
const StripePage = Type.Object({ url: Type.String({ format: 'uri', description: "Stripe's page to send the browser to" }) })
const tags = ['billing']

export interface StripeBillingRoutesOptions {
  stripe: Stripe
  db: Kysely<Database>
  /** HUB_PUBLIC_URL: Stripe's pages send the person back to its /billing page. */
  publicUrl: string
  audit: AuditRequest
  now: () => Date
}

/**
 * Checkout and the Customer Portal (docs/billing.md, "With Stripe"): the hub asks Stripe for a
 * page and answers its URL; the browser goes there, and what is paid comes back by webhook. Both
 * need a session and the CSRF token.
 */
export async function stripeBillingRoutes(app: App, { stripe, db, publicUrl, audit, now }: StripeBillingRoutesOptions) {
  const plans = createPlans(db)
  const customers = createBillingCustomers(db)
  const subscriptions = createStripeSubscriptionRecords(db)
  const billingPage = `${publicUrl}/billing`

  app.post(
    CHECKOUT_PATH,
    {
      config: { session: 'required' },
      schema: {
        summary: 'Start a Stripe Checkout to subscribe to a plan',
        description: "The price is the plan's Stripe price; the subscription is applied when Stripe's webhook reports it.",
        tags,
        body: CheckoutBody,
        response: { 200: StripePage, ...errorResponses(400, 401, 403, 409, 503) }
      }
    },
    async (request) => {
      const { userId, email } = sessionOf(request)
      const plan = await plans.find(request.body.plan)
      if (!plan) throw badRequest(`No plan has the id ${request.body.plan}`)
      if (plan.id === FREE_PLAN_ID) throw badRequest('The free plan needs no payment')
      if (plan.stripePriceId === null) throw badRequest(`The plan ${plan.id} is not sold through Stripe`)
      // A second checkout would bill the person twice; the portal changes the plan instead.
      if (await subscriptions.liveOf(userId)) throw conflict(ALREADY_SUBSCRIBED)
      const customer = await callStripe(() => customerFor(stripe, customers, { userId, email }, now()))
      const checkout = await callStripe(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price: plan.stripePriceId as string, quantity: 1 }],
          customer,
          client_reference_id: userId,
          subscription_data: { metadata: { userId } },
          success_url: billingPage,
          cancel_url: billingPage
        })
      )
      if (!checkout.url) throw new Error(`Stripe answered Checkout Session ${checkout.id} without a URL`)
      await audit(request, { userId, type: 'billing.checkout.started', detail: { plan: plan.id } })
      return { url: checkout.url }
    }
  )

  app.post(
    PORTAL_PATH,
    {
      config: { session: 'required' },
      schema: {
        summary: "Open Stripe's Customer Portal: payment method, plan changes, cancellation, invoices",
        tags,
        response: { 200: StripePage, ...errorResponses(401, 403, 409, 503) }
      }
    },
    async (request) => {
      const { userId } = sessionOf(request)
      const customer = await customers.customerOf(userId)
      if (!customer) throw conflict(NO_CUSTOMER)
      const portal = await callStripe(() => stripe.billingPortal.sessions.create({ customer, return_url: billingPage }))
      await audit(request, { userId, type: 'billing.portal.opened' })
      return { url: portal.url }
    }
  )
}

/**
 * Without Stripe the payment routes still answer, with 404 and why, rather than the generic
 * not-found: a page or script that offers payment learns the hub takes none. The webhook too, so
 * a Stripe endpoint left pointing here after STRIPE_SECRET_KEY was removed fails visibly in
 * Stripe's dashboard. Bodies are read (within the size limit) but not parsed.
 */
export async function noPaymentRoutes(app: App) {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined))
  // Each with the options of the route it stands for (webhook.ts): Stripe's calls carry no cookie.
  const routes: [string, string, FastifyContextConfig][] = [
    [CHECKOUT_PATH, 'Start a Stripe Checkout', { session: 'required' }],
    [PORTAL_PATH, "Open Stripe's Customer Portal", { session: 'required' }],
    [HOUSEHOLD_PATH, 'Let your Stripe subscription pay for a group’s plan', { session: 'required', role: 'admin' }],
    [STRIPE_WEBHOOK_PATH, 'Receive Stripe events', { csrf: false }]
  ]
  for (const [url, summary, config] of routes) {
    app.post(url, { config, schema: { summary: `${summary} (404: this hub takes no payments)`, tags, response: errorResponses(401, 403, 404) } }, async () => {
      throw notFound(NO_PAYMENTS)
    })
  }
}
