import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { parseCsv } from '../../../helpers/csv.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import type { TestDatabase } from '../../../helpers/databases.js'
import { type SignedIn, buildTestHubApp, signUpAndLogIn } from '../../../helpers/hub-app.js'
import { type ServerProcess, freePort, startBuilt } from '../../../helpers/server-process.js'

type Records = { id: string; recordedAt: string | null; [field: string]: unknown }[]
type ExportDocument = {
  datasets: Record<string, Records>
  applications: Record<string, { status: 'exported'; datasets: Record<string, Records> } | { status: 'unavailable'; reason: string }>
}

/** Shortened for the test; the hub waits 5 s by default. */
const TIMEOUT_MS = 300

/**
 * The export across the family: the hub in this process, the task manager as `npm run build` made
 * it, a process of its own on its own SQLite database, verifying the hub's export requests against
 * the JWKS the hub serves; beside it, applications that never answer, refuse, or are not there.
 */
describe('export across the family', { timeout: 60_000 }, () => {
  const [database] = databasesUnderTest()
  let handle: TestDatabase
  let hub: App
  let tasks: ServerProcess
  let silent: http.Server
  let refusing: http.Server
  let tasksDataDir: string

  const listening = async (server: http.Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  beforeAll(async () => {
    const hubPort = await freePort()
    const hubOrigin = `http://127.0.0.1:${hubPort}`
    tasksDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-family-export-'))
    const tasksPort = await freePort()
    const tasksOrigin = `http://127.0.0.1:${tasksPort}`
    // Takes the request and never answers.
    silent = http.createServer(() => undefined)
    refusing = http.createServer((_request, response) => response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down for maintenance"}'))
    const nobody = `http://127.0.0.1:${await freePort()}/export`
    handle = await database!.open()
    hub = await buildTestHubApp(handle, {
      config: {
        publicUrl: hubOrigin,
        apps: { tasks: tasksOrigin },
        appExports: { tasks: `${tasksOrigin}/export/hearth`, silent: `${await listening(silent)}/export`, refusing: `${await listening(refusing)}/export`, absent: nobody }
      },
      applicationExportTimeoutMs: TIMEOUT_MS
    })
    await hub.listen({ port: hubPort, host: '127.0.0.1' })
    tasks = await startBuilt('dist/server/tasks.js', {
      PORT: String(tasksPort),
      DATA_DIR: tasksDataDir,
      TASKS_AUTH: 'token',
      HUB_ISSUER: hubOrigin,
      HUB_JWKS_URL: `${hubOrigin}/.well-known/jwks.json`
    })
  })

  afterAll(async () => {
    tasks?.child.kill('SIGKILL')
    silent?.closeAllConnections()
    silent?.close()
    refusing?.close()
    await hub?.close()
    await handle?.destroy()
    if (tasksDataDir) fs.rmSync(tasksDataDir, { recursive: true, force: true })
  })

  const createTask = async (user: SignedIn, title: string) => {
    const issued = await hub.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    const { token } = issued.json<{ token: string }>()
    const response = await fetch(`${tasks.url}/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title })
    })
    expect(response.status).toBe(201)
  }
  const exportAs = (user: SignedIn, format: 'json' | 'csv') => hub.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format } })

  it("JSON holds the person's tasks and access grants under applications.tasks, and lists every other application as unavailable, with why", async () => {
    const user = await signUpAndLogIn(hub)
    const other = await signUpAndLogIn(hub)
    await createTask(user, 'Water the plants')
    await createTask(user, 'Call the plumber')
    await createTask(other, 'Not in the export')

    const response = await exportAs(user, 'json')
    expect(response.statusCode, response.body).toBe(200)
    const { datasets, applications } = response.json<ExportDocument>()
    expect(datasets.account).toHaveLength(1)
    const fromTasks = applications.tasks
    expect(fromTasks?.status).toBe('exported')
    if (fromTasks?.status !== 'exported') return
    expect(fromTasks.datasets.tasks?.map(({ title }) => title).sort()).toEqual(['Call the plumber', 'Water the plants'])
    expect(fromTasks.datasets.tasks?.[0]).toEqual({ id: expect.any(String), recordedAt: expect.any(String), title: expect.any(String), description: '', status: 'pending', updatedAt: expect.any(String) })
    expect(fromTasks.datasets.accessGrants).toEqual([expect.objectContaining({ applicationId: 'tasks', roles: ['member'] })])
    expect(applications.silent).toEqual({ status: 'unavailable', reason: 'no answer within 0.3 s' })
    // The person is told in a few words; the application's answer and the address are the operator's to read in the log.
    expect(applications.refusing).toEqual({ status: 'unavailable', reason: 'answered 503' })
    expect(applications.absent).toEqual({ status: 'unavailable', reason: 'unreachable' })
    expect(Object.keys(applications).sort()).toEqual(['absent', 'refusing', 'silent', 'tasks'])
  })

  it('CSV has the same rows: each task field under applications.tasks.tasks, the unavailable with their status and reason', async () => {
    const user = await signUpAndLogIn(hub)
    await createTask(user, 'Feed the cat')
    const response = await exportAs(user, 'csv')
    expect(response.statusCode, response.body).toBe(200)
    const rows = parseCsv(response.body)
    const taskRows = rows.filter(([dataset]) => dataset === 'applications.tasks.tasks')
    expect(taskRows.filter(([, , field]) => field === 'title').map(([, , , value]) => value)).toEqual(['Feed the cat'])
    expect(new Set(taskRows.map(([, , field]) => field))).toEqual(new Set(['title', 'description', 'status', 'updatedAt']))
    expect(rows.filter(([dataset]) => dataset === 'applications.tasks.accessGrants').map(([, , field, value]) => [field, value])).toContainEqual(['applicationId', 'tasks'])
    expect(rows.filter(([dataset]) => dataset === 'applications.silent')).toEqual([
      ['applications.silent', '', 'status', 'unavailable', ''],
      ['applications.silent', '', 'reason', 'no answer within 0.3 s', '']
    ])
  })
})
