import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { GOOD_PASSWORD } from '../../../helpers/hub-app.js'
import { type ServerProcess, freePort, startBuilt } from '../../../helpers/server-process.js'

const HUB_ENTRY = 'dist/server/hub.js'
const SETUP_LINK = /(http:\/\/127\.0\.0\.1:\d+\/setup#token=[A-Za-z0-9_-]{43})/g

/**
 * The first administrator as whoever installs the hub meets it: the built hub, started on a fresh
 * DATA_DIR, prints a one-time set-up link once; the link makes the administrator; a hub that has
 * one prints none at its next start, and an unused link of an earlier start is void.
 */
describe('the set-up link the hub prints at start', () => {
  const running: ServerProcess[] = []
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-setup-'))
  afterEach(() => {
    for (const server of running.splice(0)) server.child.kill('SIGKILL')
  })
  // Removed here: a test worker ends without node's 'exit' event, which left the folder (and its keys) in the temporary directory.
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

  const start = async () => {
    const port = await freePort()
    const server = await startBuilt(HUB_ENTRY, { PORT: String(port), HUB_PORT: String(port), HUB_PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir }, '/api/health')
    running.push(server)
    await vi.waitFor(() => expect(server.output()).toContain('Server listening'), { timeout: 10_000 })
    return server
  }
  const linksIn = (output: string) => [...output.matchAll(SETUP_LINK)].map(([, link]) => link ?? '')
  const setUp = (server: ServerProcess, link: string, body: Record<string, string>) =>
    fetch(`${server.url}/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'service-csrf-token=setup', 'x-csrf-token': 'setup' },
      body: JSON.stringify({ token: new URL(link).hash.slice('#token='.length), ...body })
    })

  it('prints one link, at info, while no administrator exists; a new start replaces it; using it makes the administrator; then none is printed', async () => {
    const first = await start()
    const [earlier, ...more] = linksIn(first.output())
    expect(earlier).toBeDefined()
    expect(more).toEqual([])
    const line = first.output().split('\n').find((text) => text.includes('/setup#token='))
    expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 30, service: 'hub' })
    first.child.kill('SIGKILL')
    await first.exited

    const second = await start()
    const links = linksIn(second.output())
    expect(links).toHaveLength(1)
    const [link = ''] = links
    expect(link).not.toBe(earlier)
    // The page the link opens is served, the token left in the fragment to its script.
    expect((await fetch(link)).status).toBe(200)
    const stale = await setUp(second, earlier ?? '', { email: 'too-late@example.com', password: GOOD_PASSWORD })
    expect(stale.status).toBe(403)
    const created = await setUp(second, link, { email: 'owner@example.com', password: GOOD_PASSWORD })
    expect(created.status).toBe(201)
    const again = await setUp(second, link, { email: 'someone-else@example.com', password: GOOD_PASSWORD })
    expect(again.status).toBe(403)
    second.child.kill('SIGKILL')
    await second.exited

    const third = await start()
    await vi.waitFor(() => expect(third.output()).toContain('Server listening'))
    expect(third.output()).not.toContain('/setup#token=')
    expect(third.output()).not.toContain('set-up link')
  })
})
