import { execFileSync, spawn } from 'node:child_process'
import { X509Certificate, createHash } from 'node:crypto'
import fs from 'node:fs'
import https from 'node:https'
import net from 'node:net'
import path from 'node:path'

/** The reverse proxies of docs/operations.md, as Debian installs them. */
export const PROXY_BINARIES = { nginx: '/usr/sbin/nginx', caddy: '/usr/bin/caddy' } as const
export type ProxyName = keyof typeof PROXY_BINARIES

/**
 * The proxies installed here. A missing one is skipped with a notice; in CI, which installs both
 * (.ci/run), a missing one is a failure, never a silent skip.
 */
export function proxiesUnderTest(): ProxyName[] {
  const names = Object.keys(PROXY_BINARIES) as ProxyName[]
  const missing = names.filter((name) => !fs.existsSync(PROXY_BINARIES[name]))
  if (missing.length > 0 && process.env.CI === 'true') {
    throw new Error(`${missing.join(' and ')} not found: CI must install it (apt-get install -y ${missing.join(' ')})`)
  }
  for (const name of missing) {
    console.warn(`Notice: ${name} was not found at ${PROXY_BINARIES[name]}, so its reverse-proxy recipe is not tested (apt-get install -y ${name}).`)
  }
  return names.filter((name) => !missing.includes(name))
}

export interface SelfSignedCertificate {
  certFile: string
  keyFile: string
  pem: string
  /** base64 SHA-256 of the public key (SPKI), as Chromium's `--ignore-certificate-errors-spki-list` takes it. */
  spkiSha256: string
}

/** A P-256 certificate for `names`, signed by its own key, made by openssl as an operator would. */
export function selfSignedCertificate(dir: string, names: readonly string[]): SelfSignedCertificate {
  const certFile = path.join(dir, 'cert.pem')
  const keyFile = path.join(dir, 'key.pem')
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-keyout', keyFile, '-out', certFile, '-subj', `/CN=${names[0]}`, '-addext', `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}`]
    ],
    { stdio: 'ignore' }
  )
  const pem = fs.readFileSync(certFile, 'utf8')
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' })
  return { certFile, keyFile, pem, spkiSha256: createHash('sha256').update(spki).digest('base64') }
}

export interface RunningProxy {
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string
  stop: () => Promise<void>
}

/** Whether something accepts connections at 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * Runs a proxy in the foreground as this test's own process, with only PATH and `env` in its
 * environment; resolves once every port of `ports` accepts connections.
 */
export async function startProxy(name: ProxyName, args: readonly string[], ports: readonly number[], env: Record<string, string> = {}): Promise<RunningProxy> {
  const child = spawn(PROXY_BINARIES[name], args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  const deadline = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited at start:\n${output}`)
    if ((await Promise.all(ports.map(accepts))).every(Boolean)) return { output: () => output, stop }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${name} did not listen on ${ports.join(', ')}:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export interface ClientAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * One https request to `url` (its host resolved to 127.0.0.1) from the loopback address `from`,
 * as a browser on another machine would reach the proxy, trusting `ca`.
 */
export function requestFrom(from: string, url: string, ca: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<ClientAnswer> {
  const target = new URL(url)
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'GET',
        localAddress: from,
        servername: target.hostname,
        ca,
        agent: false,
        headers: { host: target.host, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers }
      },
      (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }))
        response.on('error', reject)
      }
    )
    request.on('error', reject)
    request.end(body)
  })
}
