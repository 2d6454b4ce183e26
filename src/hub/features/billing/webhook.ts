import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import { Type } from 'typebox'
import type { Database } from '../../../shared/database/schema.js'
import { badRequest } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { STRIPE_WEBHOOK_PATH } from './paths.js'
import { UnrecognisedEvent, applyStripeEvent } from './stripe-events.js'

/** Stripe's own default: a signed call older than 5 minutes is refused, so a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

export const BAD_SIGNATURE = 'The Stripe-Signature header does not verify this body with the endpoint’s secret, or is over 5 minutes old'

/** A body signed with the endpoint's secret that is not an event: Stripe never sends one, so it is refused, not retried into a 500. */
export const NOT_AN_EVENT = 'The body is not a Stripe event: a JSON object with an id, a type, created and data.object'

const NOTHING_STORED = 'nothing stored'

export interface StripeWebhookOptions {
  stripe: Stripe
  /** STRIPE_WEBHOOK_SECRET, the endpoint's signing secret. */
  webhookSecret: string
  db: Kysely<Database>
  publicUrl: string
  now: () => Date
}

/**
 * `POST /api/billing/webhook`, where Stripe posts its events (docs/billing.md, "With Stripe").
 * Its own encapsulated plugin: here alone the body is kept as the raw bytes Stripe signed, and
 * the signature is verified before anything is parsed or stored. Outside the session and CSRF
 * checks (`csrf: false`, no session required): the signature is what a call proves.
 */
export async function stripeWebhookRoutes(app: App, { stripe, webhookSecret, db, publicUrl, now }: StripeWebhookOptions) {
  const signatures = stripe.webhooks.signature
  if (!signatures) throw new Error('The Stripe library offers no webhook signature check')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  app.post(
    STRIPE_WEBHOOK_PATH,
    {
      // Stripe's calls carry no cookie; their signature is what they prove (docs/billing.md).
      config: { csrf: false },
      schema: {
        summary: 'Receive Stripe events (signed with the endpoint secret)',
        description: 'Each event id is applied once; a retry or a replay answers 200 and changes nothing.',
        tags: ['billing'],
        response: { 200: Type.Object({ received: Type.Literal(true) }), ...errorResponses(400) }
      }
    },
    async (request) => {
      const signature = request.headers['stripe-signature']
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw badRequest(BAD_SIGNATURE)
      try {
        // Measured against the hub's clock, as every other expiry is.
        signatures.verifyHeader(request.body, signature, webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, now().getTime())
      } catch (error) {
        if (error instanceof stripe.errors.StripeSignatureVerificationError) throw badRequest(BAD_SIGNATURE)
        throw error
      }
      const event = stripeEventOf(request.body)
      const outcome = await applyOnce(db, event, publicUrl, now())
      // An event about an unknown customer or price asks for the operator's eye (a plan without its --stripe-price?).
      request.log[outcome.startsWith(NOTHING_STORED) ? 'warn' : 'info']({ stripeEvent: event.id, type: event.type, outcome }, 'Stripe event')
      return { received: true as const }
    }
  )
}

/**
 * The verified body read as an event, its envelope checked (what every handler reads before the
 * object's own fields): parsed here rather than by Stripe's `constructEvent`, whose JSON error
 * would be a 500.
 */
function stripeEventOf(body: Buffer): Stripe.Event {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    throw badRequest(NOT_AN_EVENT)
  }
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
  const envelope =
    isObject(parsed) && typeof parsed.id === 'string' && typeof parsed.type === 'string' && Number.isSafeInteger(parsed.created) && isObject(parsed.data) && isObject(parsed.data.object)
  if (!envelope) throw badRequest(NOT_AN_EVENT)
  return parsed as unknown as Stripe.Event
}

/**
 * The event id is claimed in the transaction that applies the event: applied exactly once, or,
 * should applying fail, not at all and Stripe retries it. An event about no account or plan
 * Hearth knows stores nothing, its id included, so a replay from Stripe's dashboard applies it
 * once the operator has added the plan.
 */
async function applyOnce(db: Kysely<Database>, event: Stripe.Event, publicUrl: string, now: Date): Promise<string> {
  try {
    return await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('billingWebhookEvents')
        .values({ id: event.id, type: event.type, receivedAt: now.toISOString() })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .executeTakeFirst()
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return 'already applied'
      return applyStripeEvent(event, { trx, publicUrl, now })
    })
  } catch (error) {
    if (error instanceof UnrecognisedEvent) return `${NOTHING_STORED}: ${error.message}`
    throw error
  }
}
