import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type ServerProcess, runBuilt, startBuilt } from '../helpers/server-process.js'

const ENTRY = 'dist/src/tasks/main.js'

/** The real server process, from the build `npm start` runs, on its embedded SQLite database. */
describe('task manager process', () => {
  const dataDirs: string[] = []
  const running: ServerProcess[] = []
  const newDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-process-'))
    dataDirs.push(dir)
    return dir
  }
  const start = async (env: Record<string, string>) => {
    const server = await startBuilt(ENTRY, env)
    running.push(server)
    return server
  }
  afterEach(() => {
    for (const server of running.splice(0)) server.child.kill('SIGKILL')
    for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('keeps every task it answered 201 for when killed with SIGKILL and restarted', async () => {
    const dataDir = newDataDir()
    const first = await start({ DATA_DIR: dataDir })
    const headers = { 'x-user-id': 'durable', 'content-type': 'application/json' }
    const created = await Promise.all(
      Array.from({ length: 25 }, async (_, i) => {
        const response = await fetch(`${first.url}/tasks`, { method: 'POST', headers, body: JSON.stringify({ title: `t${i}` }) })
        expect(response.status).toBe(201)
        return ((await response.json()) as { id: string }).id
      })
    )
    first.child.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')

    const second = await start({ DATA_DIR: dataDir })
    const listed = (await (await fetch(`${second.url}/tasks?limit=100`, { headers })).json()) as { tasks: { id: string }[] }
    expect(new Set(listed.tasks.map((task) => task.id))).toEqual(new Set(created))
  })

  it('on SIGTERM finishes in-flight requests, closes the database and exits 0', async () => {
    const server = await start({ DATA_DIR: newDataDir() })
    const inFlight = fetch(`${server.url}/tasks`, {
      method: 'POST',
      headers: { 'x-user-id': 'leaving', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'last one' })
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    server.child.kill('SIGTERM')
    expect((await inFlight).status).toBe(201)
    expect(await server.exited).toBe(0)
  })

  it('never writes the x-user-id value to its log', async () => {
    const server = await start({ DATA_DIR: newDataDir(), LOG_LEVEL: 'trace' })
    const secretUser = 'user-5f2c9e81-identity'
    await fetch(`${server.url}/tasks`, { headers: { 'x-user-id': secretUser } })
    await fetch(`${server.url}/tasks/nope`, { headers: { 'x-user-id': secretUser } })
    server.child.kill('SIGTERM')
    await server.exited
    expect(server.output()).toContain('request completed')
    expect(server.output()).toMatch(/"requestId":"[0-9a-f-]{36}"/)
    expect(server.output()).not.toContain(secretUser)
  })

  it.each([
    ['PORT', 'eighty'],
    ['LOG_LEVEL', 'loud'],
    ['PERMISSIONS_ENABLED', 'maybe'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['TASKS_APP_ID', 'Tasks App']
  ])('refuses to start when %s is %s, naming the variable, with exit code 1', async (variable, value) => {
    const server = runBuilt(ENTRY, { DATA_DIR: newDataDir(), [variable]: value })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain(variable)
  })
})
