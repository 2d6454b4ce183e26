import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import SQLite from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { Browserless } from '../helpers/browserless.js'
import { type ServerProcess, freePort, startBuilt } from '../helpers/server-process.js'
import { signInWithCode, signUpWithTwoStep } from '../helpers/two-step-over-http.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const run = promisify(execFile)
/** Task creates in flight at once during the drill. */
const WRITERS = 8

/** The hub CLI as an operator runs it, in a process of its own. */
function hubCli(args: string[], dataDir: string) {
  return run(process.execPath, [path.join(ROOT, 'dist/src/cli/hub.js'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir } })
}

/**
 * The restore drill of issue 31: both services run from the build and take writes while `backup`
 * runs in another process; the backup is restored into a fresh directory and the services start
 * from it. Whatever was acknowledged before the backup began must be there, and what the old
 * secrets made (sessions, two-step secrets, SSO tokens) must still work.
 */
describe('restore drill: a backup taken under load, restored and started from', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-drill-'))
  const running: ServerProcess[] = []
  afterAll(() => {
    for (const server of running) server.child.kill('SIGKILL')
    fs.rmSync(scratch, { recursive: true, force: true })
  })

  it('keeps every acknowledged write, passes integrity_check, and keeps sessions, two-step codes and SSO tokens working', { timeout: 120_000 }, async () => {
    const [hubPort, tasksPort] = [await freePort(), await freePort()]
    const hubUrl = `http://localhost:${hubPort}`
    const start = async (dataDir: string) => {
      const server = await startBuilt('dist/server/main.js', { DATA_DIR: dataDir, PORT: String(tasksPort), TASKS_AUTH: 'token', HUB_PORT: String(hubPort), HUB_PUBLIC_URL: hubUrl })
      running.push(server)
      return server
    }
    const stop = async (server: ServerProcess) => {
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    }

    const original = await start(path.join(scratch, 'data'))
    const { hub, secret, confirmedAt } = await signUpWithTwoStep(hubUrl, path.join(scratch, 'data', 'outbox'))
    const issued = await hub.call('POST', '/api/auth/generate-token', { audience: 'tasks' })
    expect(issued.status).toBe(200)
    const { token } = (await issued.json()) as { token: string }
    const bearer = { authorization: `Bearer ${token}` }
    const tasks = new Browserless(original.url)

    // Writers create tasks without pause; each acknowledgement is noted with its time.
    const acknowledged: { id: string; at: number }[] = []
    let writing = true
    const writer = async () => {
      for (let n = 0; writing; n++) {
        const created = await tasks.call('POST', '/tasks', { title: `drill ${n}` }, bearer)
        expect(created.status).toBe(201)
        const { id } = (await created.json()) as { id: string }
        acknowledged.push({ id, at: Date.now() })
      }
    }
    const writers = Array.from({ length: WRITERS }, writer)
    await waitUntil(() => acknowledged.length >= 50)
    const backupStartedAt = Date.now()
    const backup = await hubCli(['backup', '--to', path.join(scratch, 'drill.backup')], path.join(scratch, 'data'))
    const backupEndedAt = Date.now()
    writing = false
    await Promise.all(writers)
    expect(backup.stdout).toMatch(/^Backed up hearth\.db, /)

    const before = acknowledged.filter((write) => write.at < backupStartedAt)
    // The load went on while the backup ran: the drill proves nothing otherwise.
    expect(acknowledged.filter((write) => write.at > backupStartedAt && write.at < backupEndedAt).length).toBeGreaterThan(0)
    await stop(original)

    const restoredDir = path.join(scratch, 'restored')
    await hubCli(['restore', '--from', path.join(scratch, 'drill.backup'), '--data-dir', restoredDir], path.join(scratch, 'data'))
    const file = new SQLite(path.join(restoredDir, 'hearth.db'))
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok')
      const kept = new Set((file.prepare('select id from tasks').all() as { id: string }[]).map((row) => row.id))
      expect(before.filter((write) => !kept.has(write.id))).toEqual([])
    } finally {
      file.close()
    }

    const restored = await start(restoredDir)
    // The session from before the backup still signs the person in to an application.
    expect((await hub.call('POST', '/api/auth/generate-token', { audience: 'tasks' })).status).toBe(200)
    // The SSO token signed before the backup still verifies at the task manager.
    const listed = await new Browserless(restored.url).call('GET', '/tasks', undefined, bearer)
    expect(listed.status).toBe(200)
    // A two-step code still verifies: the secret, encrypted with the restored key, decrypts.
    const second = await signInWithCode(hubUrl, secret, confirmedAt)
    expect(second.status, await second.clone().text()).toBe(200)
    await stop(restored)
  })
})

async function waitUntil(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waited 20 s in vain')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
