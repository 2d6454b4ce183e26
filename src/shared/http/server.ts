import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RawServerDefault
} from 'fastify'
import type { Logger } from '../logging.js'
import { requestIdFor } from '../logging.js'
import { errorHandling } from './error-handler.js'
import { RequestLog } from './request-log.js'
import { type OpenApiOptions, openApi } from './openapi.js'
import { formatSchemaErrors, validatorCompiler } from './validation.js'
import type { IncomingMessage, ServerResponse } from 'node:http'

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger, TypeBoxTypeProvider>

export const BODY_LIMIT_BYTES = 1024 * 1024

export interface ServerOptions {
  logger: Logger
  openApi: OpenApiOptions
}

/** The Fastify base both services share: validation, `{ error }` bodies, request ids, OpenAPI. */
export async function createServer(options: ServerOptions): Promise<App> {
  const app = Fastify({
    loggerInstance: options.logger,
    genReqId: requestIdFor,
    logController: new RequestLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    // Errors raised before routing (a malformed URL such as `/tasks/%`) keep the `{ error }` shape too.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      reply.code(error.statusCode ?? 400).send({ error: error.code === 'FST_ERR_BAD_URL' ? 'URL is malformed' : error.message })
    }
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSchemaErrorFormatter(formatSchemaErrors)
  // The APIs speak JSON; a text body is refused with 415 rather than read as a string.
  app.removeContentTypeParser('text/plain')
  // Many clients label a body-less DELETE as JSON; an empty body is no body, not an error.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done)
  )
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  await app.register(errorHandling)
  await app.register(openApi, options.openApi)
  return app
}
