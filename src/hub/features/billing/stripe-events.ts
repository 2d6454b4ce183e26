import type { Kysely } from 'kysely'
import type Stripe from 'stripe'
import type { Database } from '../../../shared/database/schema.js'
import { languageOfAccount } from '../../kernel/language/account-language.js'
import { createAuditTrail } from '../../kernel/audit/repository.js'
import { createMailQueue } from '../../kernel/mail/queue.js'
import { paymentFailedMail } from './mails.js'
import { DEFAULT_LANGUAGE } from '../../kernel/language/language.js'
import { formatAmount } from './amount.js'
import { createBillingCustomers } from './customers.js'
import { followSubscription } from './group-plans.js'
import { createPlans } from './plans.js'
import { idOf } from './stripe-client.js'
import { type StripeSubscriptionState, pastDueSinceOf, statusOfStripe, whyNotApplied } from './stripe-state.js'
import { createStripeSubscriptionRecords } from './stripe-subscriptions.js'

/** An event about no account or plan Hearth knows: answered 200, logged, and nothing of it stored. */
export class UnrecognisedEvent extends Error {}

export interface StripeEventContext {
  /** The event's transaction: the event id, the state, the audit record and the mail commit together. */
  trx: Kysely<Database>
  publicUrl: string
  now: Date
}

/**
 * Applies one verified event, from the object it carries (no call back to Stripe), and answers
 * what it did, for the log. Throws UnrecognisedEvent to have nothing stored.
 */
export async function applyStripeEvent(event: Stripe.Event, context: StripeEventContext): Promise<string> {
  const at = instantOf(event.created)
  switch (event.type) {
    case 'checkout.session.completed':
      return linkCustomer(event.data.object, context)
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return applySubscription(event.data.object, event.type === 'customer.subscription.deleted', at, context)
    case 'invoice.paid':
      return recordPaidInvoice(event.data.object, at, context)
    case 'invoice.payment_failed':
      return recordFailedPayment(event.data.object, at, context)
    default:
      // The endpoint may be sent more than it needs; acknowledged, so Stripe does not retry them.
      return 'not a type Hearth handles'
  }
}

/** A checkout completed: its customer is the account's, if the account has none linked yet. */
async function linkCustomer(session: Stripe.Checkout.Session, { trx, now }: StripeEventContext): Promise<string> {
  const userId = session.client_reference_id
  const customerId = idOf(session.customer)
  if (userId === null || customerId === undefined) return 'no account or customer to link'
  if (!(await accountExists(trx, userId))) throw new UnrecognisedEvent(`no account ${userId}`)
  await createBillingCustomers(trx).link(userId, customerId, now)
  return 'customer linked'
}

async function applySubscription(subscription: Stripe.Subscription, deleted: boolean, at: string, { trx, now }: StripeEventContext): Promise<string> {
  const userId = await accountOf(trx, idOf(subscription.customer), subscription.metadata?.userId)
  if (!userId) throw new UnrecognisedEvent(`no account for customer ${idOf(subscription.customer)}`)
  const status = statusOfStripe(deleted ? 'canceled' : subscription.status)
  if (status === undefined) return 'ignored: incomplete until its first payment'
  const records = createStripeSubscriptionRecords(trx)
  const stored = await records.lockedOf(userId)
  const planId = (await planOf(trx, subscription)) ?? (stored?.subscriptionId === subscription.id ? stored.planId : undefined)
  if (!planId) throw new UnrecognisedEvent(`no plan sells Stripe price ${subscription.items.data.map((item) => item.price.id).join(', ')}`)
  const incoming: StripeSubscriptionState = {
    subscriptionId: subscription.id,
    planId,
    status,
    currentPeriodEnd: periodEndOf(subscription),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    stateAt: at
  }
  const why = whyNotApplied(stored, incoming)
  if (why) return `ignored: ${why}`
  await records.save(userId, incoming, pastDueSinceOf(stored, incoming), now)
  // The group this subscription pays for (the household plan) follows it, and loses its plan when it ends.
  await followSubscription(trx, subscription.id, planId, status === 'canceled', now)
  await createAuditTrail(trx).record({ userId, type: 'billing.plan.changed', detail: { plan: planId, status, source: 'stripe' } }, now)
  return `subscription ${status}`
}

async function recordPaidInvoice(invoice: Stripe.Invoice, at: string, { trx, now }: StripeEventContext): Promise<string> {
  const userId = await accountOf(trx, idOf(invoice.customer), invoice.parent?.subscription_details?.metadata?.userId)
  if (!userId || invoice.id === undefined) throw new UnrecognisedEvent(`no account for customer ${idOf(invoice.customer)}`)
  const paidAt = invoice.status_transitions?.paid_at ? instantOf(invoice.status_transitions.paid_at) : at
  const paid = invoiceState(invoice, invoice.amount_paid, paidAt)
  await trx
    .insertInto('billingInvoices')
    .values({ id: invoice.id, userId, ...paid, createdAt: instantOf(invoice.created) })
    // An invoice that failed before is paid now.
    .onConflict((conflict) => conflict.column('id').doUpdateSet(paid))
    .execute()
  await createAuditTrail(trx).record({ userId, type: 'billing.invoice.paid', detail: { total: formatAmount(paid.amount, paid.currency) } }, now)
  return 'invoice paid'
}

/**
 * A payment failed: the invoice is recorded as failed, a live subscription it bills becomes past
 * due (its grace period starts), and the person is mailed. A failure of an invoice since paid
 * is old news and changes nothing.
 */
async function recordFailedPayment(invoice: Stripe.Invoice, at: string, context: StripeEventContext): Promise<string> {
  const { trx, now } = context
  const userId = await accountOf(trx, idOf(invoice.customer), invoice.parent?.subscription_details?.metadata?.userId)
  if (!userId || invoice.id === undefined) throw new UnrecognisedEvent(`no account for customer ${idOf(invoice.customer)}`)
  const known = await trx.selectFrom('billingInvoices').select('status').where('id', '=', invoice.id).executeTakeFirst()
  if (known?.status === 'paid') return 'ignored: the invoice is paid since'
  if (!known) {
    await trx
      .insertInto('billingInvoices')
      .values({ id: invoice.id, userId, ...invoiceState(invoice, invoice.amount_due, null), createdAt: instantOf(invoice.created) })
      .execute()
  }
  const audit = createAuditTrail(trx)
  const records = createStripeSubscriptionRecords(trx)
  const stored = await records.lockedOf(userId)
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription)
  const live = stored !== undefined && stored.subscriptionId !== null && stored.subscriptionId === subscriptionId && (stored.status === 'active' || stored.status === 'trialing')
  if (live && (stored.stateAt === null || at >= stored.stateAt)) {
    await records.markPastDue(userId, at, now)
    await audit.record({ userId, type: 'billing.plan.changed', detail: { plan: stored.planId, status: 'past_due', source: 'stripe' } }, now)
  }
  const total = formatAmount(invoice.amount_due, invoice.currency)
  await audit.record({ userId, type: 'billing.payment.failed', detail: { total } }, now)
  await mailPaymentFailed(userId, total, context)
  return 'payment failure recorded'
}

async function mailPaymentFailed(userId: string, total: string, { trx, publicUrl, now }: StripeEventContext): Promise<void> {
  const recipient = await recipientOf(trx, userId)
  if (!recipient) return
  const mail = paymentFailedMail({ publicUrl, language: recipient.language, email: recipient.email, total })
  await createMailQueue(trx).enqueue({ ...mail, to: recipient.email, userId }, now, trx)
}

/** The built-in account's address and language; under an external provider, the address its latest sign-in gave. */
async function recipientOf(db: Kysely<Database>, userId: string) {
  const user = await db.selectFrom('users').select(['email', 'locale']).where('id', '=', userId).executeTakeFirst()
  if (user) return { email: user.email, language: languageOfAccount(user.locale) }
  const session = await db.selectFrom('sessions').select('email').where('userId', '=', userId).where('email', '<>', '').orderBy('createdAt', 'desc').limit(1).executeTakeFirst()
  return session && { email: session.email, language: DEFAULT_LANGUAGE }
}

/** The account that pays as this customer; else the one our checkout wrote into the metadata, if it exists. */
async function accountOf(db: Kysely<Database>, customerId: string | undefined, metadataUserId: string | undefined): Promise<string | undefined> {
  const linked = customerId === undefined ? undefined : await createBillingCustomers(db).accountOf(customerId)
  if (linked) return linked
  return metadataUserId && (await accountExists(db, metadataUserId)) ? metadataUserId : undefined
}

async function accountExists(db: Kysely<Database>, userId: string): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
  if (user) return true
  // Under an external provider an account is known by its sessions.
  const session = await db.selectFrom('sessions').select('id').where('userId', '=', userId).limit(1).executeTakeFirst()
  return session !== undefined
}

/** The plan the subscription's price sells: the amount and plan are always Stripe's, never the browser's. */
async function planOf(db: Kysely<Database>, subscription: Stripe.Subscription): Promise<string | undefined> {
  const plans = createPlans(db)
  for (const item of subscription.items.data) {
    const plan = await plans.findByStripePrice(item.price.id)
    if (plan) return plan.id
  }
  return undefined
}

/** In recent API versions the period lives on the items; older ones put it on the subscription. */
function periodEndOf(subscription: Stripe.Subscription): string | null {
  const ends = subscription.items.data.map((item) => item.current_period_end).filter((end): end is number => typeof end === 'number')
  const legacy = (subscription as { current_period_end?: unknown }).current_period_end
  const end = ends.length > 0 ? Math.max(...ends) : typeof legacy === 'number' ? legacy : undefined
  return end === undefined ? null : instantOf(end)
}

/** What is stored of an invoice as this event reports it: paid at `paidAt`, or failed (null). */
function invoiceState(invoice: Stripe.Invoice, amount: number, paidAt: string | null) {
  return { amount, currency: invoice.currency.toUpperCase(), status: paidAt === null ? ('failed' as const) : ('paid' as const), paidAt, url: invoice.hosted_invoice_url ?? null }
}

/** Stripe's times are Unix seconds; the database stores ISO 8601. */
function instantOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString()
}
