import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { USAGE } from '../../src/cli/hub-commands.js'
import { NODE_FLAGS, freePort } from '../helpers/server-process.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const BIN = path.join(ROOT, 'bin/hearth.js')
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('bin/hearth.js', () => {
  const directories: string[] = []
  const newDirectory = () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bin-'))
    directories.push(directory)
    return directory
  }
  const running: number[] = []
  afterEach(() => {
    for (const pid of running.splice(0)) killGroup(pid)
    for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true })
  })

  /** The bin as a person runs it, with DATA_DIR and nothing else of this process's environment. */
  const hearth = (args: string[], options: { dataDir?: string; input?: string; node?: string[] } = {}) => {
    const result = spawnSync(process.execPath, [...(options.node ?? []), BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: options.dataDir ?? newDirectory(), LOG_LEVEL: 'silent' },
      input: options.input ?? '',
      encoding: 'utf8'
    })
    return { status: result.status, out: result.stdout, err: result.stderr }
  }

  it('runs the hub command line from dist/: hearth hub COMMAND is npm run hub -- COMMAND', () => {
    const dataDir = newDirectory()
    expect(hearth(['hub', '--help'])).toEqual({ status: 0, out: `${USAGE}\n`, err: '' })
    const created = hearth(['hub', 'users:create', '--email', 'ada@example.com'], { dataDir, input: 'correct horse battery\n' })
    expect(created).toMatchObject({ status: 0, err: '' })
    expect(created.out).toMatch(/^Created ada@example\.com with id [0-9a-f-]{36}\.\n$/)
    expect(hearth(['hub', 'users:promote', '--email', 'ada@example.com'], { dataDir })).toMatchObject({ status: 0, out: 'ada@example.com is now an administrator.\n' })
    expect(hearth(['hub', 'users:create'], { dataDir })).toMatchObject({ status: 2, err: 'users:create needs --email\n' })
  })

  it('runs the grants command line', () => {
    const dataDir = newDirectory()
    expect(hearth(['grants', 'grant', '--user', 'ada', '--permissions', 'read'], { dataDir }).status).toBe(0)
    const listed = hearth(['grants', 'list'], { dataDir })
    expect(listed.status).toBe(0)
    expect(listed.out).toMatch(/^ada\s+tasks\s/m)
  })

  it('prints its usage for --help, and exits 2 with it for anything it does not know', () => {
    const help = hearth(['--help'])
    expect(help).toMatchObject({ status: 0, err: '' })
    for (const line of ['hearth start ', 'hearth start hub', 'hearth start tasks', 'hearth hub COMMAND', 'hearth grants COMMAND']) expect(help.out).toContain(line)
    expect(hearth([])).toMatchObject({ status: 2, out: '', err: `${help.out}` })
    expect(hearth(['users:create'])).toMatchObject({ status: 2, err: `Unknown command: users:create\n\n${help.out}` })
    expect(hearth(['start', 'billing'])).toMatchObject({ status: 2, err: `Unknown service: billing\n\n${help.out}` })
  })

  it('finds its checkout when run through a symbolic link, as one on the PATH', () => {
    const link = path.join(newDirectory(), 'hearth')
    fs.symlinkSync(BIN, link)
    const result = spawnSync(link, ['hub', '--help'], { cwd: os.tmpdir(), encoding: 'utf8' })
    expect(result).toMatchObject({ status: 0, stdout: `${USAGE}\n` })
  })

  it('says in one line to build when dist/ has not been built, and builds nothing itself', () => {
    const checkout = newDirectory()
    // A checkout as cloned, before any build: bin/, scripts/ and package.json, nothing compiled.
    for (const file of ['bin/hearth.js', 'scripts/node-flags.mjs', 'package.json']) {
      fs.mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true })
      fs.copyFileSync(path.join(ROOT, file), path.join(checkout, file))
    }
    for (const args of [['hub', '--help'], ['start']]) {
      const result = spawnSync(process.execPath, [path.join(checkout, 'bin/hearth.js'), ...args], { cwd: checkout, encoding: 'utf8' })
      expect(result.status).toBe(1)
      expect(result.stderr).toMatch(/^hearth: dist\/(src|server)\/[a-z/]+\.js is missing: run npm run build in .+ first\n$/)
    }
    expect(fs.existsSync(path.join(checkout, 'dist'))).toBe(false)
  })

  it('loads only what the command runs: --help no database, users:create neither OpenID Connect, Stripe nor mail parsing', () => {
    // A resolve hook lists the packages each run imports.
    const hooks = path.join(newDirectory(), 'hooks.mjs')
    fs.writeFileSync(
      hooks,
      `export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context)
        const name = resolved.url.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//)
        if (name) process._rawDebug('package ' + name[1])
        return resolved
      }`
    )
    const register = path.join(path.dirname(hooks), 'register.mjs')
    fs.writeFileSync(register, `import { register } from 'node:module'\nregister(${JSON.stringify(`file://${hooks}`)})\n`)
    const packagesOf = (args: string[], input = '') => {
      const result = hearth(args, { node: ['--import', register], input })
      expect(result.status, result.err).toBe(0)
      return new Set([...result.err.matchAll(/^package (.+)$/gm)].map((match) => match[1]))
    }

    const help = packagesOf(['hub', '--help'])
    for (const heavy of ['kysely', 'better-sqlite3', 'pg', 'oidc-provider', 'stripe', 'mailparser', 'jose']) expect(help, heavy).not.toContain(heavy)
    const create = packagesOf(['hub', 'users:create', '--email', 'bea@example.com'], 'correct horse battery')
    expect(create).toContain('kysely')
    for (const heavy of ['oidc-provider', 'stripe', 'mailparser', 'jose', 'fastify']) expect(create, heavy).not.toContain(heavy)
  })

  describe('hearth start', () => {
    /** `hearth start tasks` in a process group of its own, as a shell runs a command, once it answers. */
    const startTasks = async () => {
      const port = await freePort()
      const child = spawn(process.execPath, [BIN, 'start', 'tasks'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: newDirectory(), PORT: String(port), LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true
      })
      running.push(child.pid ?? 0)
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
      const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
      const url = `http://127.0.0.1:${port}`
      const deadline = Date.now() + 20_000
      for (;;) {
        if (child.exitCode !== null) throw new Error(`hearth start exited early:\n${output}`)
        if (await fetch(`${url}/health`).then((response) => response.ok, () => false)) break
        if (Date.now() > deadline) throw new Error(`hearth start did not start:\n${output}`)
        await pause(100)
      }
      return { child, url, exited, output: () => output }
    }

    it("runs the services with package.json's config.nodeFlags", async () => {
      const { child } = await startTasks()
      const [servicePid] = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')
      const argv = fs.readFileSync(`/proc/${servicePid}/cmdline`, 'utf8').split('\0').slice(0, -1)
      expect(argv.slice(1)).toEqual([...NODE_FLAGS, path.join(ROOT, 'dist/server/tasks.js')])
    })

    it('on SIGTERM lets the services finish a request in flight, and exits 0 as they do', async () => {
      const server = await startTasks()
      const request = await requestInFlight(server.url)
      server.child.kill('SIGTERM')
      await pause(300)
      expect(server.child.exitCode).toBeNull()
      request.finish()
      expect(await request.status).toBe(201)
      expect(await server.exited).toBe(0)
      expect(server.output()).toContain('"signal":"SIGTERM"')
    })

    it("drains on Ctrl-C, though the terminal's SIGINT reaches its whole process group: the services are told once", async () => {
      const server = await startTasks()
      const request = await requestInFlight(server.url)
      process.kill(-(server.child.pid ?? 0), 'SIGINT')
      await pause(300)
      request.finish()
      // Told twice, close-with-grace would stop at once ("second SIGINT, exiting") with exit code 1.
      expect(await request.status).toBe(201)
      expect(await server.exited).toBe(0)
      expect(server.output()).not.toContain('second SIGINT')
    })
  })
})

/**
 * A request to create a task whose body has been half sent, so it is surely in flight when the
 * test signals the server; `finish` sends the rest.
 */
async function requestInFlight(url: string): Promise<{ finish: () => void; status: Promise<number> }> {
  const body = JSON.stringify({ title: 'last one' })
  const request = http.request(`${url}/tasks`, {
    method: 'POST',
    headers: { 'x-user-id': 'leaving', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
  })
  const status = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    request.on('error', reject)
  })
  request.write(body.slice(0, 5))
  await pause(300)
  return { finish: () => request.end(body.slice(5)), status }
}

/** Ends a test's `hearth start` and the services it started, wherever the test left them. */
function killGroup(pid: number): void {
  const children = (() => {
    try {
      return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number)
    } catch {
      return []
    }
  })()
  for (const target of [pid, ...children]) {
    try {
      process.kill(target, 'SIGKILL')
    } catch {
      // Already gone.
    }
  }
}
