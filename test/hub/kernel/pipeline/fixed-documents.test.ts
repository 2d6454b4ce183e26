import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOT_A_PAGE_CSP, PAGE_ONLY_SECURITY_HEADERS } from '../../../../src/hub/kernel/security/security-headers.js'
import { rotateSigningKeys } from '../../../../src/hub/kernel/tokens/keyring.js'
import type { App } from '../../../../src/shared/http/server.js'
import { capturedLog } from '../../../helpers/captured-log.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import type { TestDatabase } from '../../../helpers/databases.js'
import { FOREIGN_ORIGIN, buildTestHubApp } from '../../../helpers/hub-app.js'
import { freePort } from '../../../helpers/server-process.js'

const DISCOVERY = '/.well-known/openid-configuration'
const JWKS = '/.well-known/jwks.json'

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/** Headers every answer has its own value of, whichever way it went. */
const PER_ANSWER = ['x-request-id', 'date', 'content-length', 'connection', 'keep-alive']

describe.each(databasesUnderTest())('fixed documents replayed before routing (issue 32) on $name', (database) => {
  const log = capturedLog('info')
  let handle: TestDatabase
  let hub: App
  let port: number

  beforeAll(async () => {
    port = await freePort()
    handle = await database.open()
    hub = await buildTestHubApp(handle, { logger: log.logger, config: { publicUrl: `http://127.0.0.1:${port}` } })
    await hub.listen({ port, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await hub?.close()
    await handle?.destroy()
  })

  /** A request over a real socket (node:http: fetch will not send a Host or Origin of the test's choosing). */
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Answer>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, async (response) => {
        let body = ''
        for await (const chunk of response) body += String(chunk)
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body })
      })
      request.once('error', reject).end()
    })
  /** How many requests for `path` the request log has written: each answer that went through the pipeline. */
  const loggedAnswers = (path: string) => log.lines.filter((line) => line.msg === 'request completed' && line.path === path.split('?')[0]).length
  const withoutPerAnswer = (headers: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.includes(name)))

  it.each([
    ['the discovery document', DISCOVERY],
    ['the JWKS', JWKS]
  ])('answers %s from its first answer, with what a JSON document needs of its headers', async (_name, path) => {
    await get(path)
    // The same document through the pipeline, which a query sends it through: what the replay must match.
    const first = await get(`${path}?whole-way`)
    const logged = loggedAnswers(path)
    const again = await get(path)

    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.body).toBe(first.body)
    // The replay skipped the pipeline, and so its log line.
    expect(loggedAnswers(path)).toBe(logged)
    const expected = Object.fromEntries(
      Object.entries(withoutPerAnswer(first.headers))
        .filter(([name]) => name !== 'set-cookie' && !PAGE_ONLY_SECURITY_HEADERS.has(name))
        .map(([name, value]) => [name, name === 'content-security-policy' ? NOT_A_PAGE_CSP : value])
    )
    expect(withoutPerAnswer(again.headers)).toEqual(expected)
    expect(again.headers).toMatchObject({
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(first.body))
    })
    expect(again.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id'])
    // A request id the caller sends is kept, as the pipeline keeps it.
    expect((await get(path, { 'x-request-id': 'from-the-application-1' })).headers['x-request-id']).toBe('from-the-application-1')
  })

  it.each([
    ['a cookie', JWKS, () => ({ cookie: 'service-csrf-token=abc' }), 'GET'],
    ['an Origin', JWKS, () => ({ origin: FOREIGN_ORIGIN }), 'GET'],
    ['a query', `${JWKS}?fresh=1`, () => ({}), 'GET'],
    ['HEAD', JWKS, () => ({}), 'HEAD'],
    // The URL parser's spelling of it is 127.0.0.1: allowed, and never recorded.
    ['a Host in another spelling', DISCOVERY, () => ({ host: `127.000.000.001:${port}` }), 'GET']
  ])('lets a request with %s go through the pipeline', async (_case, path, headers, method) => {
    await get(path.split('?')[0] ?? path)
    const logged = loggedAnswers(path)
    const answer = await get(path, headers(), method)
    expect(answer.status).toBe(200)
    // Twice: the first such answer is not recorded for the next one either.
    await get(path, headers(), method)
    expect(loggedAnswers(path)).toBe(logged + 2)
    // Each is answered as the pipeline answers it, with the pages' headers.
    expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin')
  })

  it('refuses a Host the hub does not answer for, as before', async () => {
    await get(JWKS)
    const answer = await get(JWKS, { host: 'rebound.example' })
    expect(answer.status).toBe(421)
    expect(JSON.parse(answer.body)).toEqual({ error: 'This server does not answer for that Host' })
  })

  it('answers a rotated key set from the next request, through the pipeline once, then from it', async () => {
    await get(JWKS)
    const kids = await rotateSigningKeys(handle.dataDir, new Date())
    const logged = loggedAnswers(JWKS)

    const rotated = await get(JWKS)
    expect((JSON.parse(rotated.body) as { keys: { kid: string }[] }).keys.map((key) => key.kid).slice(0, kids.length)).toEqual(kids)
    expect(loggedAnswers(JWKS)).toBe(logged + 1)
    const again = await get(JWKS)
    expect(again.body).toBe(rotated.body)
    expect(loggedAnswers(JWKS)).toBe(logged + 1)

    // Discovery comes from a new provider, built over the new keys, then is replayed again.
    const discoveryLogged = loggedAnswers(DISCOVERY)
    await get(DISCOVERY)
    expect(loggedAnswers(DISCOVERY)).toBe(discoveryLogged + 1)
    await get(DISCOVERY)
    expect(loggedAnswers(DISCOVERY)).toBe(discoveryLogged + 1)
  })
})
