import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { type CspNonce, STATIC_SECURITY_HEADERS, contentSecurityPolicy, freshCspNonce } from '../security/security-headers.js'

declare module 'fastify' {
  interface FastifyReply {
    /** This response's CSP nonces, for the inline scripts and styles of a page. */
    cspNonce: CspNonce
  }
}

/**
 * Security headers on every response, pages and API, errors and preflights included: a strict
 * CSP whose script and style sources are a per-response nonce (reply.cspNonce), HSTS,
 * X-Frame-Options DENY, nosniff, no referrer, and an isolated opener. Written here rather than
 * by @fastify/helmet so the same headers go on the errors Fastify answers before any hook runs.
 */
export const securityHeaders = fp(
  async function securityHeaders(app: FastifyInstance) {
    const apply = (reply: FastifyReply) => {
      reply.cspNonce = freshCspNonce()
      reply.headers(STATIC_SECURITY_HEADERS).header('content-security-policy', contentSecurityPolicy(reply.cspNonce))
    }
    // A placeholder for Fastify's reply shape: the hook below sets it before any handler runs.
    app.decorateReply('cspNonce', null as unknown as CspNonce)
    // A callback hook, not an async one: it runs on every request and should cost no promise.
    app.addHook('onRequest', (_request, reply, done) => {
      apply(reply)
      done()
    })
    app.addFrameworkErrorHook((_request, reply) => apply(reply))
  },
  { name: 'security-headers' }
)
