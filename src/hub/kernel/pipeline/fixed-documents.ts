import type { IncomingMessage, OutgoingHttpHeader } from 'node:http'
import fp from 'fastify-plugin'
import { canonicalHost } from '../../../shared/http/host-header.js'
import { requestIdFor } from '../../../shared/logging.js'
import { NOT_A_PAGE_CSP, PAGE_ONLY_SECURITY_HEADERS } from '../security/security-headers.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For a GET route whose answer is the same for every caller until the document changes (the
     * OpenID Connect discovery document, the JWKS): the document's current version, any object
     * that is a new one when the answer would change, or undefined while none is built. Its
     * answer through the pipeline is then recorded and replayed before routing (below).
     */
    fixedDocument?: () => object | undefined
  }
}

type Headers = Record<string, OutgoingHttpHeader>

interface RecordedAnswer {
  version: object
  headers: Headers
  body: Buffer
}

/**
 * Discovery and the JWKS are read by every application, at its start and whenever it meets a key
 * it does not know, and are the same for all of them (issue 32). The first cookieless GET of such
 * a document, from an allowed Host and without an Origin, goes through the whole pipeline (the Host
 * check, security headers, CORS, the request log, the route). Its 200 is recorded, and every later
 * such GET with the same Host gets it again before routing, without hooks, until the document's
 * version changes (a key rotation) or the server starts closing.
 *
 * A replay differs from the recorded answer in what only a page needs: it sets no CSRF cookie
 * (a browser gets its token with any page or API answer), and carries NOT_A_PAGE_CSP instead of
 * the pages' policy and none of PAGE_ONLY_SECURITY_HEADERS; its request id is its own. It writes no
 * log line, as a route with `logSuccess: false` writes none for a success. A request with a cookie,
 * an Origin, a query or another method goes the whole way, as does every one whose answer the
 * pipeline might make otherwise.
 */
export const fixedDocuments = fp(
  async function fixedDocuments(app) {
    const versions = new Map<string, () => object | undefined>()
    const recorded = new Map<string, RecordedAnswer>()
    // The path exactly as routed (no query) and the Host as sent: a spelling other than the
    // canonical one is never recorded, so the map holds one answer per document and allowed Host.
    const keyOf = (request: IncomingMessage) => {
      const { method, url = '', headers } = request
      const replayable = method === 'GET' && versions.has(url) && headers.host !== undefined && headers.origin === undefined && headers.cookie === undefined
      return replayable ? `${headers.host} ${url}` : undefined
    }
    const replayedHeaders = (headers: Record<string, OutgoingHttpHeader | undefined>): Headers => {
      const kept: Headers = {}
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined && name !== 'set-cookie' && !PAGE_ONLY_SECURITY_HEADERS.has(name)) kept[name] = value
      }
      return { ...kept, 'content-security-policy': NOT_A_PAGE_CSP }
    }

    app.addHook('onRoute', (route) => {
      const version = route.config?.fixedDocument
      if (version !== undefined && [route.method].flat().includes('GET')) versions.set(route.url, version)
    })
    // A callback hook, not an async one: it runs on every response and should cost no promise.
    app.addHook('onSend', (request, reply, payload, done) => {
      const version = request.routeOptions.config.fixedDocument?.()
      const key = version === undefined || reply.statusCode !== 200 ? undefined : keyOf(request.raw)
      const { host = '' } = request.headers
      if (version !== undefined && key !== undefined && canonicalHost(host) === host && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
        recorded.set(key, { version, headers: replayedHeaders(reply.getHeaders()), body: Buffer.from(payload) })
      }
      done(null, payload)
    })
    app.answerBeforeRouting((request, response) => {
      const key = keyOf(request)
      const answer = key === undefined ? undefined : recorded.get(key)
      if (answer === undefined || answer.version !== versions.get(request.url ?? '')?.()) return false
      response.writeHead(200, { ...answer.headers, 'x-request-id': requestIdFor(request), 'content-length': answer.body.length })
      response.end(answer.body)
      return true
    })
  },
  { name: 'fixed-documents' }
)
