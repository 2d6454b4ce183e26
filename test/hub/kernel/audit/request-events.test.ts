import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { auditRequests } from '../../../../src/hub/kernel/audit/context.js'
import { createAuditTrail } from '../../../../src/hub/kernel/audit/repository.js'
import { databasesUnderTest, useDatabase } from '../../../helpers/databases.js'

const requestFrom = (ip: string) => ({ ip, headers: { 'user-agent': `agent of ${ip}` } }) as unknown as FastifyRequest

/** Requests' events recorded together share one INSERT (audit/context.ts); each is still its own record. */
describe.each(databasesUnderTest())("requests' audit events on $name", (database) => {
  const handle = useDatabase(database)

  it('stores the events of concurrent requests with one INSERT, each with its origin, in the order of the calls', async () => {
    const trail = createAuditTrail(handle.current.db)
    const inserts: number[] = []
    const audit = auditRequests({ ...trail, insert: (rows) => (inserts.push(rows.length), trail.insert(rows)) })
    const before = Date.now()
    await Promise.all(
      Array.from({ length: 5 }, (_, n) => audit(requestFrom(`10.0.0.${n}`), { userId: 'together', type: 'sso-token.issued', detail: { n } }))
    )
    expect(inserts).toEqual([5])
    const events = await trail.eventsOf('together').execute()
    expect(events.map((event) => [JSON.parse(event.detail), event.ip, event.userAgent])).toEqual(
      Array.from({ length: 5 }, (_, n) => [{ n }, `10.0.0.${n}`, `agent of 10.0.0.${n}`])
    )
    for (const event of events) expect(Date.parse(event.createdAt)).toBeGreaterThanOrEqual(before)
  })

  it('is stored before its call returns, and an event recorded later comes later', async () => {
    const trail = createAuditTrail(handle.current.db)
    const audit = auditRequests(trail)
    await audit(requestFrom('10.0.1.1'), { userId: 'one-by-one', type: 'signin' })
    expect((await trail.eventsOf('one-by-one').execute()).map((event) => event.type)).toEqual(['signin'])
    await trail.record({ userId: 'one-by-one', type: 'session.refreshed' })
    await audit(requestFrom('10.0.1.1'), { userId: 'one-by-one', type: 'signout' })
    expect((await trail.eventsOf('one-by-one').execute()).map((event) => event.type)).toEqual(['signin', 'session.refreshed', 'signout'])
  })

  it('when the shared INSERT fails, stores the events one by one and fails only the one that cannot be stored', async () => {
    const trail = createAuditTrail(handle.current.db)
    const audit = auditRequests({
      ...trail,
      // Refuses any batch holding the poisoned event, as a database would refuse a bad row.
      insert: async (rows) => {
        if (rows.some((row) => row.detail.includes('poison'))) throw new Error('refused')
        await trail.insert(rows)
      }
    })
    const results = await Promise.allSettled([
      audit(requestFrom('10.0.2.1'), { userId: 'partly', type: 'signin', detail: { n: 1 } }),
      audit(requestFrom('10.0.2.1'), { userId: 'partly', type: 'signin', detail: { poison: true } }),
      audit(requestFrom('10.0.2.1'), { userId: 'partly', type: 'signout', detail: { n: 3 } })
    ])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((await trail.eventsOf('partly').execute()).map((event) => event.type)).toEqual(['signin', 'signout'])
  })
})
