import type Stripe from 'stripe'
import { serviceUnavailable } from '../../../shared/errors.js'
import type { StripeConfig } from '../../../shared/billing-config.js'

/** Long enough for Stripe's slowest calls (a Checkout Session), short enough that a person is not left waiting. */
export const STRIPE_TIMEOUT_MS = 15_000
/** Retries of a failed connection or a 5xx/409, with Stripe's backoff; each POST carries an idempotency key. */
export const STRIPE_NETWORK_RETRIES = 2

export const STRIPE_UNREACHABLE = 'Stripe cannot be reached right now; try again in a few minutes'

/**
 * The library, once a client has been made. A hub without Stripe never imports it; and before the
 * first client, no error can be one of Stripe's, so the checks below answer false.
 */
let library: typeof Stripe | undefined

/**
 * The official client, on the API version this package pins (its types describe that one).
 * STRIPE_API_URL sends its calls to a stand-in (stripe-mock, the tests' server) instead of
 * api.stripe.com. No telemetry: what Hearth does with Stripe is between the operator and Stripe.
 */
export async function createStripeClient(config: StripeConfig): Promise<Stripe> {
  library ??= (await import('stripe')).default
  return new library(config.secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    telemetry: false,
    ...(config.apiUrl ? apiAddress(config.apiUrl) : {})
  })
}

function apiAddress(url: URL): { host: string; port: number; protocol: 'http' | 'https' } {
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return { host: url.hostname, port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port), protocol }
}

/** Stripe could not answer (the network, its 5xx, its rate limit): worth trying again later. */
export function isStripeUnavailable(error: unknown): boolean {
  const errors = library?.errors
  return errors !== undefined && (error instanceof errors.StripeConnectionError || error instanceof errors.StripeAPIError || error instanceof errors.StripeRateLimitError)
}

/** An object Stripe no longer knows (deleted, or from another account or mode). */
export function isResourceMissing(error: unknown): boolean {
  const errors = library?.errors
  return errors !== undefined && error instanceof errors.StripeInvalidRequestError && error.code === 'resource_missing'
}

/** A call to Stripe made for a person waiting on it: Stripe being unavailable answers 503, not 500. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (isStripeUnavailable(error)) throw serviceUnavailable(STRIPE_UNREACHABLE)
    throw error
  }
}

/** The id of an object Stripe may send expanded or as its id. */
export function idOf(value: string | { id: string } | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined
  return typeof value === 'string' ? value : value.id
}
