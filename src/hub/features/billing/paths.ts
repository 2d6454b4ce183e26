/** Where Stripe posts its events: outside the session and CSRF checks (its route's options), behind its own signature check. */
export const STRIPE_WEBHOOK_PATH = '/api/billing/webhook'
