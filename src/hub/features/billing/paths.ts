/** Where Stripe posts its events: outside the session and CSRF checks (its route's options), behind its own signature check. */
export const STRIPE_WEBHOOK_PATH = '/api/billing/webhook'

/** Where an administrator lets their Stripe subscription pay for a group's plan (group-plan-routes.ts). */
export const HOUSEHOLD_PATH = '/api/billing/household'
