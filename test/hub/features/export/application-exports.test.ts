import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterEach, describe, expect, it } from 'vitest'
import { APPLICATION_EXPORT_MAX_BYTES, APPLICATION_EXPORT_TIMEOUT_MS, applicationExports } from '../../../../src/hub/features/export/application-exports.js'
import { capturedLog } from '../../../helpers/captured-log.js'
import { HUB_ORIGIN } from '../../../helpers/hub-app.js'
import { freshKeyring } from '../../../helpers/security-events.js'

const EMPTY_EXPORT = JSON.stringify({ datasets: { notes: [] } })

/** The hub asking applications for an export, against servers the test plays. */
describe('asking the applications for an export', () => {
  const servers: http.Server[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
  const serve = async (handler: http.RequestListener) => {
    const server = http.createServer(handler)
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/export`
  }
  let log = capturedLog()
  const askerFor = async (endpoints: Record<string, string>, timeoutMs = 5_000, maxBytes?: number) => {
    log = capturedLog()
    return applicationExports({ endpoints, keyring: await freshKeyring(), issuer: HUB_ORIGIN, logger: log.logger, now: () => new Date(), timeoutMs, ...(maxBytes === undefined ? {} : { maxBytes }) })
  }

  it('waits 5 s for an application by default', () => {
    expect(APPLICATION_EXPORT_TIMEOUT_MS).toBe(5_000)
  })

  it('sends each application a token of its own: hearth-export+jwt, its id as aud, the person as sub, the export scope, a fresh jti, a minute to live', async () => {
    const authorizations: string[] = []
    const endpoint = await serve((request, response) => {
      authorizations.push(request.headers.authorization ?? '')
      response.writeHead(200, { 'content-type': 'application/json' }).end(EMPTY_EXPORT)
    })
    const ask = await askerFor({ notes: endpoint })
    expect(await ask('user-1')).toEqual({ notes: { status: 'exported', datasets: { notes: [] } } })
    await ask('user-1')
    const tokens = authorizations.map((authorization) => authorization.replace(/^Bearer /, ''))
    expect(decodeProtectedHeader(tokens[0]!).typ).toBe('hearth-export+jwt')
    const claims = decodeJwt(tokens[0]!)
    expect(claims).toEqual({ iss: HUB_ORIGIN, aud: 'notes', sub: 'user-1', scope: 'export', jti: expect.any(String), iat: expect.any(Number), exp: claims.iat! + 60 })
    expect(decodeJwt(tokens[1]!).jti).not.toBe(claims.jti)
  })

  it('asks every application at once: one waiting for another to be asked still answers in time', async () => {
    let secondAsked: () => void = () => undefined
    const asked = new Promise<void>((resolve) => (secondAsked = resolve))
    const first = await serve((_request, response) => void asked.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end(EMPTY_EXPORT)))
    const second = await serve((_request, response) => {
      secondAsked()
      response.writeHead(200, { 'content-type': 'application/json' }).end(EMPTY_EXPORT)
    })
    const results = await (await askerFor({ first, second }, 2_000))('user-1')
    expect(results.first?.status).toBe('exported')
    expect(results.second?.status).toBe('exported')
  })

  it("tells the person an application's refusal in a few words, and keeps its answer for the operator's log", async () => {
    const endpoint = await serve((_request, response) => response.writeHead(500, { 'content-type': 'text/plain' }).end('stack trace at db.internal:5432'))
    expect(await (await askerFor({ notes: endpoint }))('user-1')).toEqual({ notes: { status: 'unavailable', reason: 'answered 500' } })
    expect(log.lines).toContainEqual(expect.objectContaining({ applicationId: 'notes', reason: 'answered 500', detail: 'stack trace at db.internal:5432', msg: 'application export unavailable' }))
  })

  it.each([
    ['not JSON', 'Service Unavailable'],
    ['not JSON of an export', '{"tasks":[]}'],
    ['records without an id', '{"datasets":{"tasks":[{"fields":{}}]}}'],
    ['a dataset that is not a list', '{"datasets":{"tasks":{}}}']
  ])('lists an application answering %s as unavailable', async (_case, body) => {
    const endpoint = await serve((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(body))
    expect(await (await askerFor({ odd: endpoint }))('user-1')).toEqual({ odd: { status: 'unavailable', reason: 'the answer is not an export' } })
  })

  it('reads at most 32 MB of an answer, whether it says its length or streams without end', async () => {
    expect(APPLICATION_EXPORT_MAX_BYTES).toBe(32 * 1024 * 1024)
    const oneMegabyte = 1024 * 1024
    const padded = JSON.stringify({ datasets: { notes: [{ id: 'n1', recordedAt: null, fields: { text: 'x'.repeat(oneMegabyte) } }] } })
    const declared = await serve((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(padded))
    let chunksSent = 0
    const endless = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      const timer = setInterval(() => {
        chunksSent++
        if (!response.write(' '.repeat(64 * 1024))) return
      }, 1)
      response.on('close', () => clearInterval(timer))
    })
    const ask = await askerFor({ declared, endless }, 5_000, oneMegabyte)
    expect(await ask('user-1')).toEqual({
      declared: { status: 'unavailable', reason: 'the answer is larger than 1 MB' },
      endless: { status: 'unavailable', reason: 'the answer is larger than 1 MB' }
    })
    // It stopped reading soon after the limit, rather than at the timeout.
    expect(chunksSent).toBeLessThan(200)
    // Below the limit, the same answer is an export.
    expect((await (await askerFor({ declared }, 5_000, 2 * oneMegabyte))('user-1')).declared?.status).toBe('exported')
  })

  it('does not follow a redirect: the token is for the endpoint named', async () => {
    const endpoint = await serve((_request, response) => response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end())
    expect((await (await askerFor({ moved: endpoint }))('user-1')).moved?.status).toBe('unavailable')
  })
})
