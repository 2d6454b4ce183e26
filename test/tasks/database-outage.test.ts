import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/shared/http/server.js'
import { buildTasksApp } from '../../src/tasks/app.js'
import { capturedLog } from '../helpers/captured-log.js'
import { eventually, postgresUnderTest, useOutageRig } from '../helpers/outage.js'
import { TEST_TASKS_CONFIG } from '../helpers/tasks-app.js'

const postgres = postgresUnderTest()

/** The task manager on PostgreSQL when the database goes away and comes back; the shared server runs on. */
describe.runIf(postgres)('the task manager through a PostgreSQL outage', () => {
  const log = capturedLog('info')
  const rig = useOutageRig(postgres!, log.logger)
  let app: App
  beforeAll(async () => {
    app = await buildTasksApp({ config: TEST_TASKS_CONFIG, db: rig.db, logger: log.logger })
  })
  afterAll(async () => {
    await app?.close()
  })

  const headers = { 'x-user-id': 'outage-user' }
  const list = () => app.inject({ method: 'GET', url: '/tasks', headers })
  const create = () => app.inject({ method: 'POST', url: '/tasks', headers, payload: { title: 'Through the storm' } })

  it('is ready while the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ready' })
  })

  it('replaces connections the server ended and answers again without a restart', async () => {
    expect((await create()).statusCode).toBe(201)
    expect(await rig.terminateBackends()).toBeGreaterThan(0)
    await eventually(async () => (await list()).statusCode === 200, 2_000)
    expect((await create()).statusCode).toBe(201)
  })

  it("answers each route's own 500 while the database is unreachable, and serves again within 2 s of its return", async () => {
    await rig.proxy.stop()
    try {
      const listed = await list()
      expect(listed.statusCode).toBe(500)
      expect(listed.json()).toEqual({ error: 'Failed to list tasks' })
      const created = await create()
      expect(created.statusCode).toBe(500)
      expect(created.json()).toEqual({ error: 'Failed to create task' })

      const ready = await app.inject({ method: 'GET', url: '/ready' })
      expect(ready.statusCode).toBe(503)
      expect(ready.json()).toEqual({ error: 'Not ready: database is down', checks: { database: 'down' } })
      expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' })
    } finally {
      await rig.proxy.start()
    }
    await eventually(async () => (await list()).statusCode === 200, 2_000)
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200)
  })

  it('logs a failed request in a few short lines, without a stack trace', async () => {
    const before = log.text.length
    await rig.proxy.stop()
    try {
      expect((await list()).statusCode).toBe(500)
    } finally {
      await rig.proxy.start()
    }
    const written = log.text.slice(before)
    expect(written).not.toContain('"stack"')
    // The access check's failed lookup, the route's failure and the request line: about 700 bytes, not 3 KB.
    expect(written.length).toBeLessThan(1_200)
    for (const line of log.lines.filter((entry) => entry.msg === 'database unavailable' || entry.msg === 'access check failed')) {
      expect(line).toHaveProperty('reason')
      expect(line).not.toHaveProperty('err')
    }
  })
})
