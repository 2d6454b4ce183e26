import { beforeAll, describe, expect, it } from 'vitest'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { createSubscriptions } from '../../../../src/hub/features/billing/subscriptions.js'
import { PRO_PLAN, insertInvoice } from '../../../helpers/billing.js'
import { parseCsv } from '../../../helpers/csv.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('billing in the export on $name', (database) => {
  const hub = useHubApp(database)
  const periodEnd = '2031-01-31T00:00:00.000Z'
  let user: SignedIn

  /** An account on Pro through Stripe, with its customer, one paid and one failed invoice; another account's invoice besides. */
  beforeAll(async () => {
    const { db } = hub.handle
    await createPlans(db).save(PRO_PLAN, new Date())
    user = await signUpAndLogIn(hub.app)
    const other = await signUpAndLogIn(hub.app)
    await createSubscriptions(db, 7).setByHand(user.userId, 'pro', null, new Date('2030-12-31T00:00:00.000Z'))
    await db.updateTable('billingSubscriptions').set({ stripeSubscriptionId: 'sub_export', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: 1 }).where('userId', '=', user.userId).execute()
    await db.insertInto('billingCustomers').values({ userId: user.userId, stripeCustomerId: 'cus_export', createdAt: '2030-12-01T00:00:00.000Z' }).execute()
    await insertInvoice(db, user.userId, 'in_paid', new Date('2030-12-31T00:00:00.000Z'))
    await insertInvoice(db, user.userId, 'in_failed', new Date('2031-01-31T00:00:00.000Z'), { status: 'failed', url: null })
    await insertInvoice(db, other.userId, 'in_someone_else', new Date('2031-01-01T00:00:00.000Z'))
  })

  const exportAs = (who: SignedIn, format: 'json' | 'csv') => hub.app.inject({ method: 'POST', url: '/api/export', headers: who.headers, payload: { format } })

  it('holds the subscription, the Stripe customer and every invoice, paid or failed, in JSON', async () => {
    const response = await exportAs(user, 'json')
    expect(response.statusCode).toBe(200)
    const { billing } = response.json<{ datasets: { billing: Record<string, unknown>[] } }>().datasets
    expect(billing).toEqual([
      {
        id: 'subscription',
        recordedAt: '2030-12-31T00:00:00.000Z',
        kind: 'subscription',
        plan: 'pro',
        status: 'active',
        currentPeriodEnd: periodEnd,
        cancelAtPeriodEnd: true,
        pastDueSince: null,
        stripeSubscriptionId: 'sub_export'
      },
      { id: 'customer', recordedAt: '2030-12-01T00:00:00.000Z', kind: 'customer', stripeCustomerId: 'cus_export' },
      { id: 'in_paid', recordedAt: '2030-12-31T00:00:00.000Z', kind: 'invoice', amount: 1200, currency: 'eur', status: 'paid', paidAt: '2030-12-31T00:00:00.000Z', url: 'https://invoice.stripe.com/i/in_paid' },
      { id: 'in_failed', recordedAt: '2031-01-31T00:00:00.000Z', kind: 'invoice', amount: 1200, currency: 'eur', status: 'failed', paidAt: '2031-01-31T00:00:00.000Z', url: null }
    ])
    expect(response.body).not.toContain('in_someone_else')
  })

  it('holds the same rows in CSV', async () => {
    const response = await exportAs(user, 'csv')
    expect(response.statusCode).toBe(200)
    const rows = parseCsv(response.body).filter(([dataset]) => dataset === 'billing')
    expect(rows).toContainEqual(['billing', 'subscription', 'plan', 'pro', '2030-12-31T00:00:00.000Z'])
    expect(rows).toContainEqual(['billing', 'subscription', 'cancelAtPeriodEnd', 'true', '2030-12-31T00:00:00.000Z'])
    expect(rows).toContainEqual(['billing', 'customer', 'stripeCustomerId', 'cus_export', '2030-12-01T00:00:00.000Z'])
    expect(rows).toContainEqual(['billing', 'in_paid', 'amount', '1200', '2030-12-31T00:00:00.000Z'])
    expect(rows).toContainEqual(['billing', 'in_failed', 'status', 'failed', '2031-01-31T00:00:00.000Z'])
    expect(new Set(rows.map(([, recordId]) => recordId))).toEqual(new Set(['subscription', 'customer', 'in_paid', 'in_failed']))
  })

  it('is empty for an account that never had a plan or paid', async () => {
    const someone = await signUpAndLogIn(hub.app)
    const response = await exportAs(someone, 'json')
    expect(response.json<{ datasets: { billing: unknown[] } }>().datasets.billing).toEqual([])
  })
})
