import { spawn } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuditTrail } from '../../../../src/hub/kernel/audit/repository.js'
import type { App } from '../../../../src/shared/http/server.js'
import { type TestDatabase, databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, buildTestHubApp, signUpAndLogIn } from '../../../helpers/hub-app.js'

const DAY = 86_400_000
const PRUNING_INTERVAL_MS = 100
const daysAgo = (days: number) => new Date(Date.now() - days * DAY)

describe.each(databasesUnderTest())('scheduled audit trail pruning on $name', (database) => {
  let handle: TestDatabase
  let app: App
  beforeAll(async () => {
    handle = await database.open()
    app = await buildTestHubApp(handle, { auditPruningIntervalMs: PRUNING_INTERVAL_MS })
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })

  const typesOf = async (user: SignedIn) => {
    const response = await app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' } })
    return response.json<{ datasets: { auditTrail: { type: string }[] } }>().datasets.auditTrail.map(({ type }) => type)
  }
  const storedTypesOf = async (user: SignedIn) => (await createAuditTrail(handle.db).eventsOf(user.userId).execute()).map(({ type }) => type)

  it("drops, on its own schedule, the events older than each user's retention", async () => {
    const keepsDefault = await signUpAndLogIn(app)
    const keeps30Days = await signUpAndLogIn(app)
    const saved = await app.inject({ method: 'PUT', url: '/api/privacy/settings', headers: keeps30Days.headers, payload: { retention: { activityLogDays: 30 } } })
    expect(saved.statusCode).toBe(200)
    // Written after the hub started, so only a later scheduled run can remove them.
    const audit = createAuditTrail(handle.db)
    for (const user of [keepsDefault, keeps30Days]) {
      await audit.record({ userId: user.userId, type: 'signout' }, daysAgo(400))
      await audit.record({ userId: user.userId, type: 'session.refreshed' }, daysAgo(100))
    }

    await expect.poll(() => storedTypesOf(keeps30Days), { timeout: 5000, interval: PRUNING_INTERVAL_MS }).not.toContain('session.refreshed')
    expect(await typesOf(keeps30Days)).toEqual(['signup', 'signin', 'privacy.updated', 'export.created'])
    expect(await typesOf(keepsDefault)).toEqual(['session.refreshed', 'signup', 'signin', 'export.created'])
  })

  it('stops when the hub closes', async () => {
    const own = await database.open()
    try {
      const closing = await buildTestHubApp(own, { auditPruningIntervalMs: PRUNING_INTERVAL_MS })
      await closing.close()
      const audit = createAuditTrail(own.db)
      await audit.record({ userId: 'after-close', type: 'signout' }, daysAgo(400))
      await new Promise((resolve) => setTimeout(resolve, 5 * PRUNING_INTERVAL_MS))
      expect((await audit.eventsOf('after-close').execute()).map(({ type }) => type)).toEqual(['signout'])
    } finally {
      await own.destroy()
    }
  })
})

describe('the pruning timer', () => {
  it('does not keep the process alive (needs npm run build)', async () => {
    const pruning = path.resolve(import.meta.dirname, '../../../../dist/src/hub/kernel/audit/pruning.js')
    const script = `import { schedulePruning } from ${JSON.stringify(pruning)}; schedulePruning({ pruneAll: async () => {} }, console, 60000)`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const timeout = setTimeout(() => child.kill(), 10_000)
    expect(await exited).toBe(0)
    clearTimeout(timeout)
  })
})
