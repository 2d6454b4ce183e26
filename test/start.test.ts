import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type ServerProcess, freePort, startBuilt } from './helpers/server-process.js'

const ENTRY = 'dist/server/main.js'

interface LogLine {
  msg: string
  service?: string
  open?: Record<string, string>
  outbox?: string
}

/**
 * What `npm start` prints for a newcomer (issue 27): the addresses to open and what to do first,
 * once, and where mail goes; every address it prints answers, none with the DNS-rebinding 421.
 */
describe('npm start, the built server of every service', () => {
  const dataDirs: string[] = []
  const running: ServerProcess[] = []
  afterEach(() => {
    for (const server of running.splice(0)) server.child.kill('SIGKILL')
    for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
  })

  /** Both services on free ports, the hub's public URL at its own port as by default; answers once the start-up is told. */
  const start = async (env: Record<string, string> = {}) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-start-'))
    dataDirs.push(dataDir)
    const [tasksPort, hubPort] = [await freePort(), await freePort()]
    const server = await startBuilt(ENTRY, { DATA_DIR: dataDir, PORT: String(tasksPort), HUB_PORT: String(hubPort), HUB_PUBLIC_URL: `http://localhost:${hubPort}`, ...env })
    running.push(server)
    const lines = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine)
    await vi.waitFor(() => expect(lines().some((line) => line.msg.startsWith('ready: '))).toBe(true), { timeout: 10_000 })
    return { server, dataDir, tasksPort, hubPort, lines }
  }

  /** Every http URL the process printed, whatever the line. */
  const printedUrls = (output: string) => [...new Set([...output.matchAll(/https?:\/\/[^\s"\\]+/g)].map(([url]) => url))]

  it('says once what to open and what to do first, and where mail goes; every address it prints answers', async () => {
    const { server, dataDir, tasksPort, hubPort, lines } = await start()
    const hub = `http://localhost:${hubPort}`
    const tasks = `http://localhost:${tasksPort}`

    const ready = lines().filter((line) => line.msg.startsWith('ready: '))
    expect(ready).toEqual([
      expect.objectContaining({ msg: `ready: open ${hub} and create an account; the task manager is at ${tasks}`, open: { hub, tasks } })
    ])
    const outbox = path.join(dataDir, 'outbox')
    expect(lines().filter((line) => line.outbox !== undefined)).toEqual([
      expect.objectContaining({
        service: 'hub',
        outbox,
        msg: `HUB_SMTP_URL is not set: mail is not sent but written to ${outbox}; read it, links included, with npm run hub -- mail:outbox`
      })
    ])
    // Fastify's own lines for the sockets, at the addresses a person may copy from the terminal.
    expect(lines().filter((line) => line.msg.startsWith('Server listening')).map(({ service, msg }) => ({ service, msg }))).toEqual([
      { service: 'hub', msg: `Server listening at http://127.0.0.1:${hubPort}` },
      { service: 'tasks', msg: `Server listening at http://127.0.0.1:${tasksPort}` }
    ])

    const urls = printedUrls(server.output())
    expect(urls).toEqual(expect.arrayContaining([hub, tasks, `http://127.0.0.1:${hubPort}`, `http://127.0.0.1:${tasksPort}`]))
    for (const url of urls) {
      const response = await fetch(url, { redirect: 'manual' })
      expect(response.status, url).not.toBe(421)
      expect(response.status, url).toBeLessThan(500)
    }
    // The hub's loopback address sends a browser to its public URL, where the pages work.
    const aliased = await fetch(`http://127.0.0.1:${hubPort}/signup`, { redirect: 'manual' })
    expect(aliased.status).toBe(307)
    expect(aliased.headers.get('location')).toBe(`${hub}/signup`)
    const signup = await fetch(`http://127.0.0.1:${hubPort}/signup`)
    expect(signup.url).toBe(`${hub}/signup`)
    expect(await signup.text()).toContain('<code>npm run hub -- mail:outbox</code>')
  })

  it('on every interface (HOST=0.0.0.0) prints as a URL only the addresses whose Host it answers', async () => {
    const { server, hubPort, tasksPort, lines } = await start({ HOST: '0.0.0.0' })
    const listening = lines().filter((line) => line.msg.startsWith('Server listening'))
    // 127.0.0.1 and each other interface's address, for each service.
    expect(listening.length).toBeGreaterThanOrEqual(2)
    for (const { msg } of listening.filter((line) => !line.msg.includes('127.0.0.1'))) {
      expect(msg).toMatch(/^Server listening on \S+:\d+, which is not one of its allowed Hosts \(HUB_ALLOWED_HOSTS, TASKS_ALLOWED_HOSTS\): requests there get 421$/)
    }
    const urls = printedUrls(server.output())
    expect(urls).toEqual(expect.arrayContaining([`http://localhost:${hubPort}`, `http://localhost:${tasksPort}`]))
    for (const url of urls) {
      const response = await fetch(url, { redirect: 'manual' })
      expect(response.status, url).not.toBe(421)
      expect(response.status, url).toBeLessThan(500)
    }
  })
})
