import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll } from 'vitest'

/** One call the hub made to Stripe's API, as the stand-in received it. */
export interface StripeCall {
  method: string
  path: string
  /** The form body, flattened as Stripe encodes it: `line_items[0][price]`. */
  form: Record<string, string>
  idempotencyKey: string | undefined
}

export const STRIPE_TEST_SECRET_KEY = 'sk_test_hearthStandIn'
export const STRIPE_TEST_WEBHOOK_SECRET = 'whsec_hearthStandIn'

/**
 * A stand-in for Stripe's API on loopback: it records every call and answers the few the hub
 * makes as Stripe would (customers, Checkout and portal sessions, subscription cancels), with
 * Stripe's idempotency (a repeated key gets the first answer back) and its error shape. The
 * stripe client is pointed at it with STRIPE_API_URL, so nothing reaches the network.
 */
export async function startStripeStandIn() {
  const calls: StripeCall[] = []
  /** Subscriptions Stripe knows: cancel answers resource_missing for any other. */
  const subscriptions = new Set<string>()
  const answered = new Map<string, { status: number; body: unknown }>()
  let counter = 0

  const answer = (call: StripeCall): { status: number; body: unknown } => {
    counter += 1
    const { method, path, form } = call
    if (method === 'POST' && path === '/v1/customers') {
      return { status: 200, body: { id: `cus_standin${counter}`, object: 'customer', email: form.email ?? null, metadata: metadataOf(form) } }
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_standin${counter}`
      return { status: 200, body: { id, object: 'checkout.session', mode: form.mode, customer: form.customer, client_reference_id: form.client_reference_id, url: `https://checkout.stripe.com/c/pay/${id}` } }
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = `bps_standin${counter}`
      return { status: 200, body: { id, object: 'billing_portal.session', customer: form.customer, return_url: form.return_url, url: `https://billing.stripe.com/p/session/${id}` } }
    }
    const cancel = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)
    if (method === 'DELETE' && cancel?.[1] && subscriptions.has(cancel[1])) {
      subscriptions.delete(cancel[1])
      return { status: 200, body: { id: cancel[1], object: 'subscription', status: 'canceled' } }
    }
    const missing = cancel?.[1] ? `No such subscription: '${cancel[1]}'` : `Unrecognized request URL (${method}: ${path})`
    return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: missing } } }
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in')
      const body = Buffer.concat(chunks).toString()
      const key = request.headers['idempotency-key']
      const call: StripeCall = {
        method: request.method ?? '',
        path: url.pathname,
        form: Object.fromEntries(new URLSearchParams(request.method === 'GET' ? url.search : body)),
        idempotencyKey: typeof key === 'string' ? key : undefined
      }
      calls.push(call)
      const replayKey = call.idempotencyKey && `${call.method} ${call.path} ${call.idempotencyKey}`
      const result = (replayKey && answered.get(replayKey)) || answer(call)
      if (replayKey) answered.set(replayKey, result)
      response.writeHead(result.status, { 'content-type': 'application/json', 'request-id': `req_standin${counter}` })
      response.end(JSON.stringify(result.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    subscriptions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>

/** The stand-in for the suite around the call; read `stand.in` inside the tests. */
export function useStripeStandIn() {
  const stand = {} as { in: StripeStandIn }
  beforeAll(async () => {
    stand.in = await startStripeStandIn()
  })
  afterAll(async () => {
    await stand.in?.close()
  })
  return stand
}

/** The hub's billing configuration with Stripe, its client pointed at `apiUrl`. */
export function stripeBilling(apiUrl: string) {
  return { graceDays: 7, stripe: { secretKey: STRIPE_TEST_SECRET_KEY, webhookSecret: STRIPE_TEST_WEBHOOK_SECRET, apiUrl: new URL(apiUrl) } }
}

/** A webhook call as Stripe makes it: the event as JSON, signed at `at` with the endpoint's secret (or `secret`). */
export function signedWebhook(event: object, at: Date, secret = STRIPE_TEST_WEBHOOK_SECRET) {
  const payload = JSON.stringify(event)
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(at.getTime() / 1000) })
  return { payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } }
}

function metadataOf(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .map(([key, value]) => [/^metadata\[(.+)\]$/.exec(key)?.[1], value])
      .filter((entry): entry is [string, string] => entry[0] !== undefined)
  )
}
