import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * The hub API's baseline, on every task manager response: JSON is never sniffed into HTML, no
 * Referer leaves with a task's URL, and no page may frame an answer or load anything through it.
 */
export const TASKS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
}

/**
 * On every response, errors Fastify answers before any hook included. Swagger UI's pages at /docs
 * replace the policy with the one @fastify/swagger-ui writes for them, which lets them run.
 */
export const securityHeaders = fp(
  async function securityHeaders(app: FastifyInstance) {
    // A callback hook, not an async one: it runs on every request and should cost no promise.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(TASKS_SECURITY_HEADERS)
      done()
    })
    app.addFrameworkErrorHook((_request, reply) => {
      reply.headers(TASKS_SECURITY_HEADERS)
    })
  },
  { name: 'security-headers' }
)
