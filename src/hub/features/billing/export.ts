import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { ExportDataset } from '../../kernel/records/datasets.js'

/**
 * A person's billing records in the export, as stored: the subscription, the Stripe customer they
 * pay as, and every invoice Stripe reported, paid or failed. Never card data: Hearth holds none.
 * Each record says its `kind`, so the one dataset reads the same in JSON and CSV.
 */
export function billingDataset(db: Kysely<Database>): ExportDataset {
  return {
    name: 'billing',
    description: 'Your billing: your subscription (plan, status, dates), the Stripe customer you pay as, and your invoices (never card data: Hearth holds none)',
    async *records(userId) {
      const [subscription, customer, invoices] = await Promise.all([
        db
          .selectFrom('billingSubscriptions')
          .select(['planId', 'status', 'currentPeriodEnd', 'cancelAtPeriodEnd', 'pastDueSince', 'stripeSubscriptionId', 'updatedAt'])
          .where('userId', '=', userId)
          .executeTakeFirst(),
        db.selectFrom('billingCustomers').select(['stripeCustomerId', 'createdAt']).where('userId', '=', userId).executeTakeFirst(),
        db.selectFrom('billingInvoices').select(['id', 'amount', 'currency', 'status', 'paidAt', 'url', 'createdAt']).where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute()
      ])
      if (subscription) {
        const { planId, cancelAtPeriodEnd, updatedAt, ...fields } = subscription
        yield { id: 'subscription', recordedAt: updatedAt, fields: { kind: 'subscription', plan: planId, ...fields, cancelAtPeriodEnd: cancelAtPeriodEnd === 1 } }
      }
      if (customer) yield { id: 'customer', recordedAt: customer.createdAt, fields: { kind: 'customer', stripeCustomerId: customer.stripeCustomerId } }
      for (const { id, createdAt, ...fields } of invoices) yield { id, recordedAt: createdAt, fields: { kind: 'invoice', ...fields } }
    }
  }
}
