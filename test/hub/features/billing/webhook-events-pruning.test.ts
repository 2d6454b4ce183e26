import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_EVENT_RETENTION_DAYS, pruneWebhookEvents } from '../../../../src/hub/features/billing/webhook-events-pruning.js'
import { type TestDatabase, databasesUnderTest } from '../../../helpers/databases.js'
import { buildTestHubApp } from '../../../helpers/hub-app.js'

const DAY_MS = 86_400_000

describe.each(databasesUnderTest())('pruning applied Stripe event ids on $name', (database) => {
  let handle: TestDatabase
  beforeAll(async () => {
    handle = await database.open()
  })
  afterAll(() => handle.destroy())

  it('keeps the ids of the last 35 days, past Stripe’s 30 days of resendable events, and deletes older ones', async () => {
    expect(WEBHOOK_EVENT_RETENTION_DAYS).toBe(35)
    const now = new Date('2031-06-01T00:00:00.000Z')
    const receivedDaysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString()
    await handle.db
      .insertInto('billingWebhookEvents')
      .values([
        { id: 'evt_today', type: 'invoice.paid', receivedAt: receivedDaysAgo(0) },
        { id: 'evt_retried', type: 'invoice.paid', receivedAt: receivedDaysAgo(3) },
        { id: 'evt_edge', type: 'invoice.paid', receivedAt: receivedDaysAgo(35) },
        { id: 'evt_old', type: 'invoice.paid', receivedAt: receivedDaysAgo(36) }
      ])
      .execute()
    await pruneWebhookEvents(handle.db, now)
    const kept = await handle.db.selectFrom('billingWebhookEvents').select('id').orderBy('id').execute()
    expect(kept.map(({ id }) => id)).toEqual(['evt_edge', 'evt_retried', 'evt_today'])
  })

  it('runs in a hub that takes Stripe payments, from its start', async () => {
    await handle.db.insertInto('billingWebhookEvents').values({ id: 'evt_long_ago', type: 'invoice.paid', receivedAt: '2001-01-01T00:00:00.000Z' }).execute()
    const stripe = { secretKey: 'sk_test_pruning', webhookSecret: 'whsec_pruning', apiUrl: new URL('http://127.0.0.1:9') }
    const app = await buildTestHubApp(handle, { config: { billing: { graceDays: 7, stripe } } })
    try {
      await expect
        .poll(async () => (await handle.db.selectFrom('billingWebhookEvents').select('id').where('id', '=', 'evt_long_ago').execute()).length, { timeout: 5_000 })
        .toBe(0)
    } finally {
      await app.close()
    }
  })
})
