import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { isDatabaseUnavailable, outageReason } from '../database/availability.js'
import { HttpError } from '../errors.js'

/** What every unexpected failure tells the client; the log keeps the rest. */
export const INTERNAL_SERVER_ERROR = 'Internal server error'

/** What a request that met a database outage is told, with `Retry-After`, where it answers 503. */
export const SERVICE_UNAVAILABLE = 'The service is temporarily unavailable; try again shortly'
/** Long enough for a pool to reconnect after a restart or failover, short enough for a person. */
export const OUTAGE_RETRY_AFTER_SECONDS = 2

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `{ error }` this route answers for an unexpected failure (the spec names one per operation). */
    failureMessage?: string
    /**
     * Members a route's protocol adds beside `error` to every 4xx it answers, the framework's own
     * refusals (a body that is not JSON, too large, of the wrong type) included: RFC 8935's `err`
     * and `description` on the security-event receiver.
     */
    errorMembers?: (message: string) => Record<string, string>
  }
}

const CLIENT_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Body is not valid JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body'
}

/**
 * One error handler and one not-found handler for the whole app: every error is `{ error }`.
 * 4xx messages are written for the client; 5xx bodies say only what failed, the log keeps why.
 */
export interface ErrorHandlingOptions {
  /** Whether an unexpected 5xx answers the route's `failureMessage` rather than `Internal server error`. */
  routeFailureMessages: boolean
  /**
   * How a request that failed because the database is unreachable is answered: `unavailable`, a
   * 503 with `Retry-After`; `route-failure`, like any other failure of its route (the task
   * manager, whose spec names its 500s).
   */
  databaseOutage: 'unavailable' | 'route-failure'
}

export const errorHandling = fp<ErrorHandlingOptions>(
  async function errorHandling(app: FastifyInstance, { routeFailureMessages, databaseOutage }) {
    const routeFailure = (request: FastifyRequest) => (routeFailureMessages ? request.routeOptions.config.failureMessage : undefined)
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500
      // Written as they are, not through the route's response schema: that describes the route's
      // own answers, and one that asks for more than `error` would turn this 4xx into a 500.
      reply.serializer(JSON.stringify).type('application/json; charset=utf-8')
      if (status < 500) {
        const message = (error.code && CLIENT_MESSAGES[error.code]) || clientMessage(error)
        request.log.info({ statusCode: status, code: error.code, reason: message }, 'request rejected')
        return reply.code(status).send({ ...request.routeOptions.config.errorMembers?.(message), error: message })
      }
      // An HttpError was answered on purpose (the identity provider's 503), whatever caused it.
      if (!(error instanceof HttpError) && isDatabaseUnavailable(error)) {
        // An outage fails every request alike: one line each, without a stack that says nothing new.
        request.log.error({ reason: outageReason(error) }, 'database unavailable')
        if (databaseOutage === 'route-failure') return reply.code(500).send({ error: routeFailure(request) ?? INTERNAL_SERVER_ERROR })
        return reply.code(503).header('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS)).send({ error: SERVICE_UNAVAILABLE })
      }
      request.log.error({ err: error }, 'request failed')
      // An HttpError's message is written for the client; any other 5xx says only what failed.
      const message = error instanceof HttpError ? error.message : routeFailure(request)
      return reply.code(status).send({ error: message ?? INTERNAL_SERVER_ERROR })
    })
    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send({ error: `Route ${request.method} ${request.url.split('?')[0]} not found` })
    })
  },
  { name: 'error-handling' }
)

function clientMessage(error: FastifyError): string {
  if (error instanceof SyntaxError) return 'Body is not valid JSON'
  return error.message || 'Bad request'
}
