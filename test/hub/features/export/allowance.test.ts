import { describe, expect, it } from 'vitest'
import { EXPORTS_PER_USER, exportAllowance } from '../../../../src/hub/features/export/allowance.js'
import { createMemoryCounterStore } from '../../../../src/hub/kernel/rate-limit/counter-store.js'
import { testClock } from '../../../helpers/hub-app.js'

describe('exportAllowance', () => {
  it('allows 10 exports per user per hour, then says when to retry, and counts users apart', async () => {
    const clock = testClock()
    const allow = exportAllowance(createMemoryCounterStore(clock.now))
    for (let i = 0; i < EXPORTS_PER_USER.limit; i++) expect((await allow('ana')).allowed).toBe(true)
    clock.advance(10 * 60 * 1000)
    expect(await allow('ana')).toEqual({ allowed: false, retryAfterSeconds: 50 * 60 })
    expect((await allow('ben')).allowed).toBe(true)
    clock.advance(50 * 60 * 1000)
    expect((await allow('ana')).allowed).toBe(true)
  })
})
