import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HSTS_MAX_AGE_SECONDS } from '../../hub/kernel/security/security-headers.js'

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
 * The baseline, and HSTS when the pages are served over https (TASKS_PUBLIC_URL): a browser that
 * reached them there once never tries plain http for a year, whatever link it follows. Without
 * `includeSubDomains`, unlike the hub's: the task manager may live on a name whose subdomains are
 * other people's sites.
 */
export function tasksSecurityHeaders(publicUrl: string): Readonly<Record<string, string>> {
  if (new URL(publicUrl).protocol !== 'https:') return TASKS_SECURITY_HEADERS
  return { ...TASKS_SECURITY_HEADERS, 'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}` }
}

/**
 * On every response, errors Fastify answers before any hook included. Swagger UI's pages at /docs
 * replace the policy with the one @fastify/swagger-ui writes for them, which lets them run.
 */
export const securityHeaders = fp<{ headers: Readonly<Record<string, string>> }>(
  async function securityHeaders(app: FastifyInstance, { headers }) {
    // A callback hook, not an async one: it runs on every request and should cost no promise.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers)
      done()
    })
    app.addFrameworkErrorHook((_request, reply) => {
      reply.headers(headers)
    })
  },
  { name: 'security-headers' }
)
