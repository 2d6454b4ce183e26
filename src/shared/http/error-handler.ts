import type { FastifyError, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../errors.js'

/** What every unexpected failure tells the client; the log keeps the rest. */
export const INTERNAL_SERVER_ERROR = 'Internal server error'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `{ error }` this route answers for an unexpected failure (the spec names one per operation). */
    failureMessage?: string
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
}

export const errorHandling = fp<ErrorHandlingOptions>(
  async function errorHandling(app: FastifyInstance, { routeFailureMessages }) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500
      if (status < 500) {
        const message = (error.code && CLIENT_MESSAGES[error.code]) || clientMessage(error)
        request.log.info({ statusCode: status, code: error.code, reason: message }, 'request rejected')
        return reply.code(status).send({ error: message })
      }
      request.log.error({ err: error }, 'request failed')
      // An HttpError's message is written for the client; any other 5xx says only what failed.
      const message = error instanceof HttpError ? error.message : routeFailureMessages ? request.routeOptions.config.failureMessage : undefined
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
