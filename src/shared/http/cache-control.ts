import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * `Cache-Control: no-store` on every response whose route did not say how it may be cached. API
 * answers carry tokens, session cookies and personal data (a browser's cache, the back button, a
 * shared proxy must keep none of it), and so do their errors; what may be cached (the JWKS, the
 * pages' hashed assets, Swagger UI's files) says so itself and keeps its own header.
 */
export const noStoreUnlessCacheable = fp(
  async function noStoreUnlessCacheable(app: FastifyInstance) {
    // A callback hook, not an async one: it runs on every response and should cost no promise.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
      done(null, payload)
    })
    app.addFrameworkErrorHook((_request, reply) => {
      reply.header('cache-control', 'no-store')
    })
  },
  { name: 'no-store-unless-cacheable' }
)
