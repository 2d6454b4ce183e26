import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'

export interface RunningService {
  name: string
  baseUrl: string
  pid: number
  logFile: string
}

export interface ServiceSpec {
  name: string
  /** A compiled entry point, run with this same node binary and node's own flags, or another program with its arguments (given the port). */
  program: { script: string; nodeFlags: string[] } | { executable: string; args: (port: number) => string[] }
  /** Path that answers 200 once the service is ready to take load. */
  readinessPath: string
  /** Where the child's stdout and stderr go: off the terminal, but kept for a failed run. */
  logDir: string
  env: Record<string, string>
  /** The variables that tell the child where to listen; PORT unless the service reads others. */
  listenEnv?: (port: number) => Record<string, string>
}

const READINESS_TIMEOUT_MS = 15_000
const READINESS_POLL_MS = 100
const STOP_TIMEOUT_MS = 5_000

const running = new Set<ChildProcess>()

function portEnv(port: number): Record<string, string> {
  return { PORT: String(port) }
}

/**
 * Starts a child on a free 127.0.0.1 port and resolves once its readiness path answers 200;
 * rejects, pointing at the child's log, when it exits or does not answer in time.
 */
export async function startService(spec: ServiceSpec): Promise<RunningService> {
  const port = await freePort()
  const logFile = path.join(spec.logDir, `${spec.name}.log`)
  const log = fs.openSync(logFile, 'a')
  const { program } = spec
  const [file, args] = 'script' in program ? [process.execPath, [...program.nodeFlags, program.script]] : [program.executable, program.args(port)]
  const child = spawn(file, args, {
    env: { ...spec.env, HOST: '127.0.0.1', ...(spec.listenEnv ?? portEnv)(port) },
    stdio: ['ignore', log, log]
  })
  fs.closeSync(log)
  running.add(child)
  child.once('exit', () => running.delete(child))

  if (child.pid === undefined) throw new Error(`${spec.name} could not be started; see ${logFile}`)
  const service = { name: spec.name, baseUrl: `http://127.0.0.1:${port}`, logFile, pid: child.pid }
  await waitUntilReady(child, service, spec.readinessPath)
  return service
}

/** Asks every child to stop (SIGTERM, so the task manager closes its database) and waits for it. */
export async function stopAllServices(): Promise<void> {
  await Promise.all([...running].map(stop))
}

/** For process exit, where nothing can be awaited: signal every child still running. */
export function signalAllServices(): void {
  for (const child of running) child.kill('SIGTERM')
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}

async function waitUntilReady(child: ChildProcess, service: RunningService, readinessPath: string): Promise<void> {
  const deadline = Date.now() + READINESS_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${service.name} exited before it was ready; see ${service.logFile}`)
    }
    try {
      const response = await fetch(`${service.baseUrl}${readinessPath}`)
      if (response.status === 200) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, READINESS_POLL_MS))
  }
  throw new Error(`${service.name} did not answer ${readinessPath} within ${READINESS_TIMEOUT_MS} ms; see ${service.logFile}`)
}

/** A port the OS just handed out; the tiny window before the child binds it is acceptable for a bench. */
export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('could not read a free port')
  return address.port
}
