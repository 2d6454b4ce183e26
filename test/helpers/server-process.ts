import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')
/** The node flags `npm start`, `hearth start` and the systemd units run the services with: package.json's config.nodeFlags. */
export const NODE_FLAGS = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { config: { nodeFlags: string } }).config.nodeFlags.split(' ')

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything the process wrote so far, stdout and stderr. */
  output: () => string
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>
}

/** A port that was free a moment ago, for a child process to listen on. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Runs a built entry point (e.g. `dist/server/tasks.js`) as `npm start` would, with the given environment. */
export function runBuilt(entry: string, env: Record<string, string>): Omit<ServerProcess, 'url'> {
  const child = spawn(process.execPath, [...NODE_FLAGS, path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  return { child, output: () => output, exited }
}

/** The lines a service logged at warn level or above (pino's 40), and whatever it wrote that is not a log line: for a failed test's report. */
export function warningsOf(server: Pick<ServerProcess, 'output'>): string {
  return server
    .output()
    .split('\n')
    .filter((line) => line !== '' && !/^\{"level":[123]0,/.test(line))
    .join('\n')
}

/** The service's last answered requests, a line each (method, path, status, time), for a failed test's report. */
export function answeredRequestsOf(server: Pick<ServerProcess, 'output'>, count: number): string {
  return server
    .output()
    .split('\n')
    .flatMap((line) => {
      if (!line.includes('"request completed"')) return []
      const entry = JSON.parse(line) as { time: number; method: string; path: string; statusCode: number; responseTime: number }
      return [`${new Date(entry.time).toISOString().slice(11, 23)} ${entry.method} ${entry.path} ${entry.statusCode} ${Math.round(entry.responseTime)} ms`]
    })
    .slice(-count)
    .join('\n')
}

/** Starts a built service and waits until `healthPath` answers 200. */
export async function startBuilt(entry: string, env: Record<string, string>, healthPath = '/health'): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()))
  const server = runBuilt(entry, { ...env, PORT: String(port) })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 20_000
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`)
    try {
      if ((await fetch(url + healthPath)).ok) return { ...server, url }
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      server.child.kill('SIGKILL')
      throw new Error(`server did not start:\n${server.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
