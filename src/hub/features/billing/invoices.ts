import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'

/**
 * How many paid invoices the billing page and `GET /api/billing` show: two years of a monthly plan.
 * Older ones stay in the export and in Stripe's Customer Portal, which keeps every invoice.
 */
export const INVOICES_SHOWN = 24

/** A paid invoice as the account sees it: Stripe's id, what was paid, when, and Stripe's hosted page. */
export interface PaidInvoice {
  id: string
  /** In the currency's smallest unit (cents). */
  amount: number
  currency: string
  paidAt: string
  url: string | null
}

export type Invoices = ReturnType<typeof createInvoices>

/** Reads of the invoices Stripe reported (the webhook writes them). */
export function createInvoices(db: Kysely<Database>) {
  return {
    /** The latest paid invoices, newest first; a failed payment is not an invoice the person has. */
    async paidOf(userId: string, limit = INVOICES_SHOWN): Promise<PaidInvoice[]> {
      const rows = await db
        .selectFrom('billingInvoices')
        .select(['id', 'amount', 'currency', 'paidAt', 'url'])
        .where('userId', '=', userId)
        .where('status', '=', 'paid')
        .where('paidAt', 'is not', null)
        // The id breaks ties, so two invoices paid in the same millisecond keep one order.
        .orderBy('paidAt', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((row) => ({ ...row, paidAt: row.paidAt as string }))
    }
  }
}
