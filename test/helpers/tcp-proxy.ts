import net from 'node:net'
import { freePort } from './server-process.js'

export interface TcpProxy {
  port: number
  /** Starts forwarding on `port` again. */
  start(): Promise<void>
  /**
   * Stops listening and cuts every connection through it: to the service behind, its database
   * has gone away (connections reset, new ones refused), while the shared server runs on.
   */
  stop(): Promise<void>
}

/** A loopback TCP proxy to `target`, for outages of a server the tests share and must not stop. */
export async function tcpProxy(target: { host: string; port: number }, options: { listening?: boolean } = {}): Promise<TcpProxy> {
  const port = await freePort()
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  const track = (socket: net.Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const proxy: TcpProxy = {
    port,
    async start() {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host)
        track(client)
        track(upstream)
        client.pipe(upstream).pipe(client)
        client.on('close', () => upstream.destroy())
        upstream.on('close', () => client.destroy())
      })
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject)
        server!.listen(port, '127.0.0.1', () => resolve())
      })
    },
    async stop() {
      const closing = server
      server = undefined
      for (const socket of sockets) socket.destroy()
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()))
    }
  }
  if (options.listening ?? true) await proxy.start()
  return proxy
}

/** The host and port of a postgres:// URL. */
export function postgresAddress(databaseUrl: string): { host: string; port: number } {
  const url = new URL(databaseUrl)
  return { host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) }
}

/** The same database URL, through `port` on loopback, naming its connections `applicationName`. */
export function throughPort(databaseUrl: string, port: number, applicationName?: string): string {
  const url = new URL(databaseUrl)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  if (applicationName) url.searchParams.set('application_name', applicationName)
  return url.toString()
}
