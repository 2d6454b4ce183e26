import { type ChildProcess, spawn } from 'node:child_process'
import { Redis } from 'ioredis'
import { freePort } from './server-process.js'

export interface OwnRedisServer {
  url: string
  /** Starts the server again on the same port. */
  start(): Promise<void>
  /** Kills it, as a crash or a lost host would. */
  stop(): Promise<void>
}

/**
 * A `redis-server` of the test's own on a free loopback port, for outages: the shared Redis is
 * never stopped. Nothing is saved to disk.
 */
export async function ownRedisServer(): Promise<OwnRedisServer> {
  const port = await freePort()
  const url = `redis://127.0.0.1:${port}`
  let child: ChildProcess | undefined
  const server: OwnRedisServer = {
    url,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
      probe.on('error', () => {})
      try {
        for (let tries = 0; ; tries++) {
          try {
            await probe.connect()
            await probe.ping()
            return
          } catch (error) {
            if (tries > 100) throw error
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
        }
      } finally {
        probe.disconnect()
      }
    },
    async stop() {
      const running = child
      child = undefined
      if (!running || running.exitCode !== null) return
      const exited = new Promise((resolve) => running.once('exit', resolve))
      running.kill('SIGKILL')
      await exited
    }
  }
  await server.start()
  return server
}
