import { describe, expect, it } from 'vitest'
import { createAuditTrail } from '../../../../src/hub/kernel/audit/repository.js'
import { createPrivacyService } from '../../../../src/hub/features/privacy/service.js'
import { databasesUnderTest, useDatabase } from '../../../helpers/databases.js'

const DAY = 86_400_000
const daysAgo = (days: number) => new Date(Date.now() - days * DAY)
const origin = { ip: '127.0.0.1', userAgent: 'test' }

describe.each(databasesUnderTest())('audit trail on $name', (database) => {
  const handle = useDatabase(database)

  const typesOf = async (userId: string) => (await createAuditTrail(handle.current.db).eventsOf(userId).execute()).map((event) => event.type)

  it('keeps events in order with their origin, and no longer than each user chose', async () => {
    const audit = createAuditTrail(handle.current.db)
    const privacy = createPrivacyService(handle.current.db, ['tasks'])
    await privacy.updateSettings('short', { retention: { activityLogDays: 30 } }, origin)
    for (const user of ['short', 'default']) {
      await audit.record({ userId: user, type: 'signin', ...origin }, daysAgo(400))
      await audit.record({ userId: user, type: 'signout', ...origin }, daysAgo(100))
      await audit.record({ userId: user, type: 'session.refreshed', ...origin }, daysAgo(1))
    }
    await audit.pruneAll()
    expect(await typesOf('default')).toEqual(['signout', 'session.refreshed'])
    expect(await typesOf('short')).toEqual(['session.refreshed', 'privacy.updated'])
  })

  it('keeps the order of events recorded within one millisecond', async () => {
    const audit = createAuditTrail(handle.current.db)
    const types = ['signin', 'session.refreshed', 'sso-token.issued', 'signout'] as const
    for (let round = 0; round < 5; round++) for (const type of types) await audit.record({ userId: 'quick', type, ...origin })
    expect(await typesOf('quick')).toEqual(Array.from({ length: 5 }, () => types).flat())
  })

  it('stamps a burst of events with the true time and reads them back in the order they were recorded', async () => {
    const audit = createAuditTrail(handle.current.db)
    const count = 3000
    const inFlight = 50
    const startedAt = Date.now()
    // Many at once, as from concurrent requests, so that thousands are recorded per second on any database.
    for (let first = 0; first < count; first += inFlight) {
      await Promise.all(Array.from({ length: inFlight }, (_, k) => audit.record({ userId: 'burst', type: 'session.refreshed', detail: { n: first + k } })))
    }
    const finishedAt = Date.now()

    const events = await audit.eventsOf('burst').execute()
    const stampsMs = events.map((event) => Date.parse(event.createdAt))
    expect(stampsMs.filter((ms) => ms < startedAt || ms > finishedAt)).toEqual([])
    // Thousands of events in far fewer milliseconds: many share one, and still keep their order.
    const sharingAMillisecond = count - new Set(stampsMs).size
    expect(sharingAMillisecond).toBeGreaterThan(count / 10)
    expect(events.map((event) => (JSON.parse(event.detail) as { n: number }).n)).toEqual(Array.from({ length: count }, (_, n) => n))
  })

  it('prunes at once when a user shortens their retention', async () => {
    const audit = createAuditTrail(handle.current.db)
    await audit.record({ userId: 'shortening', type: 'signin', ...origin }, daysAgo(200))
    await createPrivacyService(handle.current.db, ['tasks']).updateSettings('shortening', { retention: { activityLogDays: 90 } }, origin)
    expect(await typesOf('shortening')).toEqual(['privacy.updated'])
  })
})
