import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { databaseUrlInSchema } from '../helpers/databases.js'
import { type ServerProcess, runBuilt, startBuilt } from '../helpers/server-process.js'

const ENTRY = 'dist/server/tasks.js'
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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

  it('on SIGTERM finishes a request still in flight, closes the database and exits 0', async () => {
    const dataDir = newDataDir()
    const server = await start({ DATA_DIR: dataDir })
    const body = JSON.stringify({ title: 'last one' })
    // The body goes in two parts with the SIGTERM between them, so the request is surely in flight.
    const request = http.request(`${server.url}/tasks`, {
      method: 'POST',
      headers: { 'x-user-id': 'leaving', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
    })
    const answered = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      request.on('response', (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, connection: response.headers.connection }))
      })
      request.on('error', reject)
    })
    request.write(body.slice(0, 5))
    await pause(300)
    server.child.kill('SIGTERM')
    await pause(300)
    expect(server.child.exitCode).toBeNull()
    request.end(body.slice(5))

    const response = await answered
    expect(response.status).toBe(201)
    expect(JSON.parse(response.body)).toMatchObject({ title: 'last one' })
    // The answer ends its connection, so the shutdown need not wait for the client to let go of it.
    expect(response.connection).toBe('close')
    expect(await server.exited).toBe(0)
    // Closing the last connection checkpoints SQLite's write-ahead log into the file and removes it.
    expect(fs.existsSync(path.join(dataDir, 'hearth.db-wal'))).toBe(false)
    const again = await start({ DATA_DIR: dataDir })
    const listed = await (await fetch(`${again.url}/tasks`, { headers: { 'x-user-id': 'leaving' } })).json()
    expect(listed.tasks).toEqual([expect.objectContaining({ title: 'last one' })])
  })

  const postgresUrl = process.env.TEST_DATABASE_URL
  it.skipIf(!postgresUrl)('creates a DATA_DIR that does not exist yet, on PostgreSQL too', async () => {
    const schema = `hearth_process_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    try {
      await admin.query(`create schema ${schema}`)
      const dataDir = path.join(newDataDir(), 'not', 'yet')
      const server = await start({ DATA_DIR: dataDir, DATABASE_URL: databaseUrlInSchema(postgresUrl!, schema).toString() })
      expect(fs.statSync(dataDir).isDirectory()).toBe(true)
      // Owner-only: the hub keeps its keys there (issue 15).
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700)
      expect(fs.existsSync(path.join(dataDir, 'hearth.db'))).toBe(false)
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    } finally {
      await admin.query(`drop schema if exists ${schema} cascade`)
      await admin.end()
    }
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
    ['TASKS_APP_ID', 'Tasks App'],
    ['HOST', 'not a host']
  ])('refuses to start when %s is %s, naming the variable, with exit code 1', async (variable, value) => {
    const server = runBuilt(ENTRY, { DATA_DIR: newDataDir(), [variable]: value })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain(variable)
  })
})
