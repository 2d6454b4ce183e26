import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openDatabase } from '../src/shared/database/connect.js'
import { Browserless } from './helpers/browserless.js'
import { type ServerProcess, freePort, startBuilt } from './helpers/server-process.js'

const ROOT = path.resolve(import.meta.dirname, '..')

/** The README's walk-through: the shell block after its `<!-- walkthrough` marker. */
function readmeWalkthrough(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const block = /<!-- walkthrough[^>]*-->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1]
  if (!block) throw new Error('README.md has no walk-through block')
  return block
}

/** Both services as README starts them (`TASKS_AUTH=token npm start`, from the build), over real HTTP. */
describe('the family: one sign-in at the hub, the task manager with its token', () => {
  let server: ServerProcess
  let hubUrl: string
  let dataDir: string

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-family-'))
    const hubPort = await freePort()
    hubUrl = `http://localhost:${hubPort}`
    server = await startBuilt('dist/server/main.js', {
      DATA_DIR: dataDir,
      TASKS_AUTH: 'token',
      HUB_PORT: String(hubPort),
      HUB_PUBLIC_URL: hubUrl,
      // Nothing answers here: tokens verify only because one process hands the hub's keys over directly.
      HUB_JWKS_URL: 'http://127.0.0.1:9/.well-known/jwks.json'
    })
  })
  afterAll(() => {
    server?.child.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('signs up, signs in, uses the task manager with an SSO token, sees the grant in the export, signs out', async () => {
    const hub = new Browserless(hubUrl)
    const account = { email: 'grace@example.org', password: 'quartz-lantern-meadow-7' }
    const signup = await hub.call('POST', '/api/auth/signup', account)
    expect(signup.status).toBe(200)
    const { userId } = (await signup.json()) as { userId: string }
    expect((await hub.call('POST', '/api/auth/login', account)).status).toBe(200)

    const issued = await hub.call('POST', '/api/auth/generate-token', { audience: 'tasks' })
    expect(issued.status).toBe(200)
    const { token } = (await issued.json()) as { token: string }

    const tasks = new Browserless(server.url)
    const bearer = { authorization: `Bearer ${token}` }
    const created = await tasks.call('POST', '/tasks', { title: 'Water the plants' }, bearer)
    expect(created.status).toBe(201)
    const task = (await created.json()) as { id: string; assignee: string }
    expect(task.assignee).toBe(userId)
    const listed = (await (await tasks.call('GET', '/tasks', undefined, bearer)).json()) as { tasks: { id: string }[] }
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id])
    const updated = await tasks.call('PUT', `/tasks/${task.id}`, { status: 'completed' }, bearer)
    expect(((await updated.json()) as { status: string }).status).toBe('completed')
    expect((await tasks.call('DELETE', `/tasks/${task.id}`, undefined, bearer)).status).toBe(204)

    // A bare header is refused: the task manager trusts only the hub's tokens here.
    expect((await tasks.call('GET', '/tasks', undefined, { 'x-user-id': userId })).status).toBe(401)

    const exported = (await (await hub.call('POST', '/api/export', { format: 'json' })).json()) as {
      datasets: { accessGrants: { applicationId: string; roles: string[]; grantedBy: string }[] }
      applications: Record<string, unknown>
    }
    expect(exported.datasets.accessGrants).toEqual([
      expect.objectContaining({ applicationId: 'tasks', roles: ['member'], grantedBy: 'system' })
    ])
    // In one process too the hub asks the task manager over HTTP, at the endpoint HUB_APPS names by default.
    expect(exported.applications).toEqual({
      tasks: { status: 'exported', datasets: { tasks: [], accessGrants: [expect.objectContaining({ applicationId: 'tasks', roles: ['member'] })] } }
    })

    const revokedCookie = hub.clone()
    expect((await hub.call('DELETE', '/api/auth/refresh')).status).toBe(204)
    expect((await revokedCookie.call('POST', '/api/auth/generate-token', { audience: 'tasks' })).status).toBe(401)
  })

  it("erases a deleted account's tasks in the task manager, reached by a security event over HTTP", async () => {
    const hub = new Browserless(hubUrl)
    const account = { email: 'leaving@example.org', password: 'quartz-lantern-meadow-7' }
    const { userId } = (await (await hub.call('POST', '/api/auth/signup', account)).json()) as { userId: string }
    expect((await hub.call('POST', '/api/auth/login', account)).status).toBe(200)
    const { token } = (await (await hub.call('POST', '/api/auth/generate-token', { audience: 'tasks' })).json()) as { token: string }
    const tasks = new Browserless(server.url)
    expect((await tasks.call('POST', '/tasks', { title: 'Water the plants' }, { authorization: `Bearer ${token}` })).status).toBe(201)

    expect((await hub.call('DELETE', '/api/account', { password: account.password })).status).toBe(204)
    // The default HUB_APPS names the task manager's events endpoint; the hub pushes to it even in one process.
    await vi.waitFor(() => expect(server.output()).toContain('security event delivered'), { timeout: 15_000 })
    const { db } = openDatabase({ databaseUrl: undefined, dataDir })
    try {
      expect(await db.selectFrom('tasks').select('id').where('assignee', '=', userId).execute()).toEqual([])
      expect(await db.selectFrom('accessGrants').select('id').where('userId', '=', userId).execute()).toEqual([])
      // The export requests' jtis are kept beside, prefixed.
      expect(await db.selectFrom('receivedSecurityEvents').select('jti').where('jti', 'not like', 'export:%').execute()).toHaveLength(1)
    } finally {
      await db.destroy()
    }
  })

  it('a key rotation is seen by the running task manager: a token signed with the new key is accepted', async () => {
    const hub = new Browserless(hubUrl)
    const account = { email: 'rotation@example.org', password: 'quartz-lantern-meadow-7' }
    expect((await hub.call('POST', '/api/auth/signup', account)).status).toBe(200)
    expect((await hub.call('POST', '/api/auth/login', account)).status).toBe(200)
    const tokenFor = async () => ((await (await hub.call('POST', '/api/auth/generate-token', { audience: 'tasks' })).json()) as { token: string }).token
    const before = await tokenFor()

    await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/src/cli/hub.js'), 'keys:rotate'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir }
    })
    const after = await tokenFor()
    expect(decodeProtectedHeader(after).kid).not.toBe(decodeProtectedHeader(before).kid)

    const tasks = new Browserless(server.url)
    for (const token of [before, after]) {
      expect((await tasks.call('GET', '/tasks', undefined, { authorization: `Bearer ${token}` })).status).toBe(200)
    }
  })

  it("runs the README's curl walk-through as written", async () => {
    const run = promisify(execFile)
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeWalkthrough()], {
      env: { PATH: process.env.PATH ?? '', HUB: hubUrl, TASKS: server.url },
      cwd: dataDir
    })
    expect(stdout).toContain('"applicationId":"tasks"')
    expect(stdout.trim().split('\n').at(-1)).toBe('401')
  })
})
