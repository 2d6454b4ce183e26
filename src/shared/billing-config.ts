import { ConfigError, type reader } from './config.js'

/** Stripe, when the operator plugs it in (STRIPE_SECRET_KEY); without it plans are set by hand. */
export interface StripeConfig {
  secretKey: string
  /** The signing secret of the webhook endpoint (`whsec_...`): events are verified with it. */
  webhookSecret: string
  /** Where the Stripe client sends its calls instead of api.stripe.com (stripe-mock or another stand-in). */
  apiUrl: URL | undefined
}

export interface BillingConfig {
  /** Days a past_due subscription keeps its plan's entitlements (HUB_BILLING_GRACE_DAYS). */
  graceDays: number
  stripe: StripeConfig | undefined
}

export const DEFAULT_BILLING_GRACE_DAYS = 7

export function readBillingConfig(read: ReturnType<typeof reader>): BillingConfig {
  return { graceDays: readGraceDays(read), stripe: readStripeConfig(read) }
}

function readGraceDays(read: ReturnType<typeof reader>): number {
  const value = read.raw('HUB_BILLING_GRACE_DAYS')
  if (value === undefined) return DEFAULT_BILLING_GRACE_DAYS
  if (!/^\d{1,3}$/.test(value)) throw new ConfigError('HUB_BILLING_GRACE_DAYS', `must be a whole number of days from 0 to 999, got "${value}"`)
  return Number(value)
}

function readStripeConfig(read: ReturnType<typeof reader>): StripeConfig | undefined {
  const secretKey = read.raw('STRIPE_SECRET_KEY')
  if (secretKey === undefined) {
    for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL']) {
      if (read.raw(name) !== undefined) throw new ConfigError(name, 'is used only with STRIPE_SECRET_KEY, which is not set')
    }
    return undefined
  }
  if (!/^(sk|rk)_(test|live)_\w+$/.test(secretKey)) throw new ConfigError('STRIPE_SECRET_KEY', 'must be a Stripe secret or restricted key (sk_live_..., sk_test_..., rk_...)')
  const webhookSecret = read.raw('STRIPE_WEBHOOK_SECRET')
  if (webhookSecret === undefined) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required with STRIPE_SECRET_KEY: unverified webhook events are never applied')
  if (!/^whsec_\w+$/.test(webhookSecret)) throw new ConfigError('STRIPE_WEBHOOK_SECRET', "must be the endpoint's signing secret (whsec_...)")
  return { secretKey, webhookSecret, apiUrl: read.raw('STRIPE_API_URL') === undefined ? undefined : read.url('STRIPE_API_URL', '') }
}
