/** Where Stripe posts its events: outside the session and CSRF checks, behind its own signature check. */
export const STRIPE_WEBHOOK_PATH = '/api/billing/webhook'
