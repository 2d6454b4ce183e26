import { describe, expect, it } from 'vitest'
import { createServer } from '../../../src/shared/http/server.js'
import { capturedLog } from '../../helpers/captured-log.js'

/** `logSuccess: false` quiets a route's successes only: what goes wrong on it is still written. */
describe('request log of a route with logSuccess: false', () => {
  it('writes its client errors and failures, not its successes', async () => {
    const log = capturedLog('info')
    const app = await createServer({ logger: log.logger, openApi: { title: 'test', description: 'test', version: '1' } })
    app.get<{ Querystring: { outcome?: string } }>('/probe', { config: { logSuccess: false } }, async (request, reply) => {
      if (request.query.outcome === 'refused') return reply.code(400).send({ error: 'Refused' })
      if (request.query.outcome === 'broken') throw new Error('probe broke')
      return { status: 'ok' }
    })

    for (const outcome of ['ok', 'refused', 'broken']) await app.inject({ url: `/probe?outcome=${outcome}` })
    await app.close()

    const requestLines = log.lines.filter((line) => line.path === '/probe')
    expect(requestLines.map((line) => [line.msg, line.statusCode])).toEqual([
      ['request completed', 400],
      ['request completed', 500]
    ])
  })
})
