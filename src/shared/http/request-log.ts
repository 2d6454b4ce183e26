import { LogController } from 'fastify'
import type { FastifyReply, FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false` for a route probed so often that its successes would bury the log; its failures are
     * still written. (A route `logLevel` would do it too, at the price of a logger with its own
     * level built for every request.)
     */
    logSuccess?: boolean
  }
}

/**
 * One line per request, written when it completes (method, path, status, time), instead of
 * Fastify's two: half the logging work on the hot path and one line to read per request.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' })
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && reply.statusCode < 400 && request.routeOptions.config.logSuccess === false) return
    const line = {
      method: request.method,
      path: request.url.split('?', 1)[0],
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime
    }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request completed')
  }
}
