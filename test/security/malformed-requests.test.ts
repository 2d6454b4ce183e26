import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/shared/http/server.js'
import { type TestDatabase, databasesUnderTest } from '../helpers/databases.js'
import { buildTestHubApp } from '../helpers/hub-app.js'
import { buildTestTasksApp } from '../helpers/tasks-app.js'

/**
 * Requests Node's HTTP parser refuses before Fastify routes them (a probe for parser differentials
 * or header injection). They must not get a body of another shape, or an answer without the
 * security headers: `{ error }`, always, from both services.
 */
const MALFORMED = [
  ['a lowercase method', 'get /health HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['a control byte in a header value', 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Note: a\x01b\r\n\r\n'],
  ['a space in a header name', 'GET /health HTTP/1.1\r\nHost: localhost\r\nX Note: a\r\n\r\n'],
  ['a line that is no HTTP', 'HELLO\r\n\r\n']
] as const

interface RawAnswer {
  statusLine: string
  headers: Record<string, string>
  body: string
}

/** Writes `request` to a fresh connection and reads everything until the server closes it. */
async function sendRaw(address: net.AddressInfo, request: string): Promise<RawAnswer> {
  const received = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(address.port, address.address)
    let data = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (data += chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(data))
    socket.write(request, 'latin1')
  })
  const [head = '', body = ''] = received.split('\r\n\r\n', 2)
  const [statusLine = '', ...headerLines] = head.split('\r\n')
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':')
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
    })
  )
  return { statusLine, headers, body }
}

async function listening(app: App): Promise<net.AddressInfo> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  return app.server.address() as net.AddressInfo
}

function expectJsonError(answer: RawAnswer): void {
  expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
  expect(answer.headers['content-type']).toMatch(/^application\/json\b/)
  expect(answer.headers.connection).toBe('close')
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body))
  expect(JSON.parse(answer.body)).toEqual({ error: 'Request is malformed' })
}

const [sqlite] = databasesUnderTest()

describe('malformed requests to the task manager', () => {
  let handle: TestDatabase
  let app: App
  let address: net.AddressInfo
  beforeAll(async () => {
    handle = await sqlite!.open()
    app = await buildTestTasksApp(handle.db)
    address = await listening(app)
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })

  it.each(MALFORMED)('answers %s with 400 {error} and the baseline headers', async (_case, request) => {
    const answer = await sendRaw(address, request)
    expectJsonError(answer)
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(answer.headers['referrer-policy']).toBe('no-referrer')
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(answer.headers['cache-control']).toBe('no-store')
  })

  it('answers headers over the limit with 431 {error}, as Node would with its status', async () => {
    const answer = await sendRaw(address, `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(JSON.parse(answer.body)).toEqual({ error: 'Request headers are too large' })
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
  })

  it('still answers a well-formed request on the same server', async () => {
    const answer = await sendRaw(address, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK')
  })
})

describe('malformed requests to the hub', () => {
  let handle: TestDatabase
  let app: App
  let address: net.AddressInfo
  beforeAll(async () => {
    handle = await sqlite!.open()
    app = await buildTestHubApp(handle)
    address = await listening(app)
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })

  it.each(MALFORMED)("answers %s with 400 {error} and the hub's security headers", async (_case, request) => {
    const answer = await sendRaw(address, request)
    expectJsonError(answer)
    const csp = answer.headers['content-security-policy'] ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toMatch(/script-src 'self' 'nonce-[0-9a-f]{32}'/)
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    expect(answer.headers['x-frame-options']).toBe('DENY')
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(answer.headers['referrer-policy']).toBe('no-referrer')
  })
})
