import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { databaseUrlInSchema } from '../helpers/databases.js'
import { GOOD_PASSWORD } from '../helpers/hub-app.js'
import { eventually, postgresUnderTest } from '../helpers/outage.js'
import { redisUrlUnderTest } from '../helpers/redis.js'
import { ownRedisServer } from '../helpers/redis-server.js'
import { type ServerProcess, freePort, runBuilt, startBuilt } from '../helpers/server-process.js'
import { postgresAddress, tcpProxy, throughPort } from '../helpers/tcp-proxy.js'

const TASKS = 'dist/server/tasks.js'
const HUB = 'dist/server/hub.js'
const postgres = postgresUnderTest()
const databaseUrl = process.env.TEST_DATABASE_URL ?? ''

/** Every line a service writes is a JSON log line: nothing plain-text among them. */
const plainTextLines = (output: string) =>
  output
    .split('\n')
    .filter(Boolean)
    .filter((line) => {
      try {
        JSON.parse(line)
        return false
      } catch {
        return true
      }
    })

/** The built services, as `npm start` runs them, when their database or Redis fails. */
describe.runIf(postgres)('services as processes through outages', { timeout: 60_000 }, () => {
  const schema = `hearth_outage_${randomBytes(4).toString('hex')}`
  const applicationName = `hearth_process_${randomBytes(4).toString('hex')}`
  const running: ServerProcess[] = []
  const dataDirs: string[] = []
  const admin = new pg.Client({ connectionString: databaseUrl })

  beforeAll(async () => {
    await admin.connect()
    await admin.query(`create schema ${schema}`)
  })
  afterEach(() => {
    for (const server of running.splice(0)) server.child.kill('SIGKILL')
  })
  afterAll(async () => {
    await admin.query(`drop schema if exists ${schema} cascade`)
    await admin.end()
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true })
  })

  const newDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-outage-'))
    dataDirs.push(dir)
    return dir
  }
  /** The test's schema, reached directly or through `port`, its connections named for the test. */
  const urlOf = (port?: number) => {
    const url = databaseUrlInSchema(port === undefined ? databaseUrl : throughPort(databaseUrl, port), schema)
    url.searchParams.set('application_name', applicationName)
    return url.toString()
  }
  const start = async (entry: string, env: Record<string, string>, healthPath?: string) => {
    const server = await startBuilt(entry, { DATA_DIR: newDataDir(), ...env }, healthPath)
    running.push(server)
    return server
  }
  const startHub = async (env: Record<string, string>) => {
    const port = String(await freePort())
    return start(HUB, { PORT: port, HUB_PORT: port, HUB_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env }, '/api/health')
  }
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

  it('a task manager and a hub survive their connections being terminated and answer again', async () => {
    const tasks = await start(TASKS, { DATABASE_URL: urlOf() })
    const hub = await startHub({ DATABASE_URL: urlOf() })
    const headers = { 'x-user-id': 'survivor' }
    expect((await post(`${tasks.url}/tasks`, { title: 'before' }, headers)).status).toBe(201)
    expect((await post(`${hub.url}/api/auth/signup`, { email: 'survivor@example.com', password: GOOD_PASSWORD })).status).toBe(200)

    const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName])
    expect(rowCount).toBeGreaterThanOrEqual(2)
    // The idle connection's loss is reported as PostgreSQL's notice reaches it. A request sent
    // before that could take the dead connection from the pool, fail on it, and be logged as a
    // failed query instead (seen once in CI), so the report is awaited first.
    await eventually(async () => tasks.output().includes('database connection lost'), 2_000)

    await eventually(async () => (await post(`${tasks.url}/tasks`, { title: 'after' }, headers)).status === 201, 2_000)
    await eventually(async () => (await post(`${hub.url}/api/auth/login`, { email: 'survivor@example.com', password: GOOD_PASSWORD })).status === 200, 2_000)
    expect((await fetch(`${tasks.url}/ready`)).status).toBe(200)
    expect((await fetch(`${hub.url}/api/ready`)).status).toBe(200)
    expect(tasks.child.exitCode).toBeNull()
    expect(hub.child.exitCode).toBeNull()
    // On PostgreSQL without Redis, each hub limits on its own: start-up says so.
    expect(hub.output()).toMatch(/"level":40,.*REDIS_URL is not set/)
  })

  it('waits at start-up for a database that is not there yet, then serves', async () => {
    const proxy = await tcpProxy(postgresAddress(databaseUrl), { listening: false })
    try {
      const starting = start(TASKS, { DATABASE_URL: urlOf(proxy.port), DATABASE_CONNECT_TIMEOUT: '30' })
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      await proxy.start()
      const tasks = await starting
      expect(tasks.output()).toContain('database not reachable yet; retrying')
      expect((await fetch(`${tasks.url}/tasks`, { headers: { 'x-user-id': 'patient' } })).status).toBe(200)
    } finally {
      await proxy.stop()
    }
  })

  it('gives up with exit code 1 when the database stays away for DATABASE_CONNECT_TIMEOUT', async () => {
    const server = runBuilt(TASKS, { DATA_DIR: newDataDir(), PORT: String(await freePort()), DATABASE_URL: urlOf(await freePort()), DATABASE_CONNECT_TIMEOUT: '1' })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain('DATABASE_CONNECT_TIMEOUT')
    expect(server.output()).toContain('database not reachable yet; retrying')
    expect(plainTextLines(server.output())).toEqual([])
  })

  it.runIf(redisUrlUnderTest())('a hub whose Redis dies keeps signing people in and writes only JSON lines', async () => {
    const redis = await ownRedisServer()
    try {
      const hub = await startHub({ REDIS_URL: redis.url })
      const account = { email: 'redisless@example.com', password: GOOD_PASSWORD }
      expect((await post(`${hub.url}/api/auth/signup`, account)).status).toBe(200)
      await redis.stop()
      for (let attempt = 0; attempt < 3; attempt++) expect((await post(`${hub.url}/api/auth/login`, account)).status).toBe(200)
      // Long enough for several failed reconnects, each of which ioredis would print unasked.
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      expect(hub.output()).toContain('Redis is unreachable')
      expect(plainTextLines(hub.output())).toEqual([])
    } finally {
      await redis.stop()
    }
  })
})
