import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { createServer } from '../../../src/shared/http/server.js'
import { createLogger } from '../../../src/shared/logging.js'

/** A GET over a fresh connection: what a client of the listening server gets. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, async (response) => {
        let body = ''
        for await (const chunk of response) body += String(chunk)
        resolve({ status: response.statusCode ?? 0, body })
      })
      .once('error', reject)
  })
}

describe('answers before routing (app.answerBeforeRouting)', () => {
  it('take each request first, leave the ones they decline to Fastify, and stand aside once the server is closing', async () => {
    const app = await createServer({ logger: createLogger('silent'), openApi: { title: 'test', description: 'test', version: '1' } })
    app.get('/document', async () => ({ from: 'the route' }))
    app.answerBeforeRouting((request, response) => {
      if (request.url !== '/document') return false
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"before routing"}')
      return true
    })
    let duringClose: { status: number; body: string } | undefined
    // Runs after the server's own preClose hook, while it still accepts connections.
    app.addHook('preClose', async () => {
      duringClose = await get(port, '/document')
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }

    // The server is still one with Fastify's timeouts: its 72 s keep-alive, not node's 5 s.
    expect(app.server.keepAliveTimeout).toBe(72_000)
    expect(await get(port, '/document')).toEqual({ status: 200, body: '{"from":"before routing"}' })
    expect((await get(port, '/elsewhere')).status).toBe(404)
    await app.close()
    // Fastify answers it, as it answers every request once closing begins.
    expect(duringClose?.status).toBe(503)
  })
})
