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
import { type ErrorHandlingOptions, INTERNAL_SERVER_ERROR, errorHandling } from './error-handler.js'
import { RequestLog } from './request-log.js'
import { malformedRequestAnswer } from './malformed-requests.js'
import { type OpenApiOptions, openApi } from './openapi.js'
import { serializersCompiledOnFirstUse } from './serialization.js'
import { formatSchemaErrors, validatorCompiler } from './validation.js'
import { type IncomingMessage, type ServerResponse, createServer as createHttpServer } from 'node:http'

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger, TypeBoxTypeProvider>

export const BODY_LIMIT_BYTES = 1024 * 1024

export interface ServerOptions {
  logger: Logger
  openApi: OpenApiOptions
  /**
   * Whether a 5xx may answer the route's `failureMessage` (the task manager's spec names one per
   * operation). When false every unexpected failure says only `Internal server error`.
   */
  routeFailureMessages?: boolean
  /** How a request that met a database outage is answered (see `ErrorHandlingOptions`); 503 by default. */
  databaseOutage?: ErrorHandlingOptions['databaseOutage']
  /**
   * Proxies whose `X-Forwarded-*` headers are believed (addresses, CIDR ranges or proxy-addr's
   * named ranges). None by default: `request.ip` is the connection's peer.
   */
  trustedProxies?: string[]
  /**
   * The headers every response carries (the service's security headers), for the answer to a
   * request Node's parser refused, which no hook sees. None by default.
   */
  malformedRequestHeaders?: () => Readonly<Record<string, string>>
}

/** Sets what every response carries on a reply Fastify answers before any hook has run. */
export type FrameworkErrorHook = (request: FastifyRequest, reply: FastifyReply) => void

/** Answers a request before Fastify routes it and says so, or returns false and leaves it to Fastify. */
export type AnswerBeforeRouting = (request: IncomingMessage, response: ServerResponse) => boolean

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Errors found before routing (a malformed URL, an over-long parameter) are answered outside
     * every hook; a plugin that adds headers or cookies to every response adds them there too.
     */
    addFrameworkErrorHook(hook: FrameworkErrorHook): void
    /**
     * Every route registered on the app, method by method, with its URL as registered
     * (`/tasks/:taskId`, `/oidc/*`): what a check over every route goes over, so that a route
     * added later is covered without anyone listing it.
     */
    readonly registeredRoutes: readonly RegisteredRoute[]
    /**
     * Lets `answer` take each request first, before routing and every hook (so before the request
     * log too), until the server starts closing. For answers recorded from the app's own, not for
     * rules of their own: see the hub's `fixed-documents.ts`.
     */
    answerBeforeRouting(answer: AnswerBeforeRouting): void
  }
}

export interface RegisteredRoute {
  method: string
  url: string
}

/** The Fastify base both services share: validation, `{ error }` bodies, request ids, no-store, OpenAPI. */
export async function createServer(options: ServerOptions): Promise<App> {
  const frameworkErrorHooks: FrameworkErrorHook[] = []
  const answersBeforeRouting: AnswerBeforeRouting[] = []
  // A request still in flight when the server starts closing is answered, then its keep-alive
  // connection ends with it: otherwise the close waits out the client's idle connection.
  let closing = false
  const app = Fastify({
    loggerInstance: options.logger,
    genReqId: requestIdFor,
    logController: new RequestLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildSerializer: serializersCompiledOnFirstUse } },
    trustProxy: options.trustedProxies?.length ? options.trustedProxies : false,
    clientErrorHandler: malformedRequestAnswer(options.logger, options.malformedRequestHeaders ?? (() => ({}))),
    // Fastify's own server, with its timeouts as Fastify would set them, that offers each request to
    // the answers before routing first.
    serverFactory: (handler, { keepAliveTimeout, requestTimeout, connectionTimeout }) => {
      const server = createHttpServer((request, response) => {
        if (closing || !answersBeforeRouting.some((answer) => answer(request, response))) handler(request, response)
      })
      Object.assign(server, { keepAliveTimeout, requestTimeout })
      return server.setTimeout(connectionTimeout as number)
    },
    // Errors raised before routing (a malformed URL such as `/tasks/%`) keep the `{ error }` shape,
    // the request id and whatever the app's plugins put on every response.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode ?? 400
      reply.header('x-request-id', request.id).header('cache-control', 'no-store')
      for (const hook of frameworkErrorHooks) hook(request, reply)
      if (status >= 500) request.log.error({ err: error }, 'request failed')
      reply.code(status).send({ error: frameworkErrorMessage(error, status) })
    }
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.decorate('addFrameworkErrorHook', (hook: FrameworkErrorHook) => {
    frameworkErrorHooks.push(hook)
  })
  app.decorate('answerBeforeRouting', (answer: AnswerBeforeRouting) => {
    answersBeforeRouting.push(answer)
  })
  const registeredRoutes: RegisteredRoute[] = []
  app.decorate('registeredRoutes', registeredRoutes)
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url })
  })
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
  app.addHook('preClose', async () => {
    closing = true
  })
  // One callback hook, not async ones: it runs on every response and should cost no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    // API answers carry tokens, session cookies and personal data, and so may their errors: no
    // browser cache, back button or shared proxy keeps them. What may be cached (the JWKS, the
    // pages' hashed assets, Swagger UI's files) says so itself and keeps its own header.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
  await app.register(errorHandling, {
    routeFailureMessages: options.routeFailureMessages ?? true,
    databaseOutage: options.databaseOutage ?? 'unavailable'
  })
  await app.register(openApi, options.openApi)
  return app
}

function frameworkErrorMessage(error: FastifyError, status: number): string {
  if (status >= 500) return INTERNAL_SERVER_ERROR
  return error.code === 'FST_ERR_BAD_URL' ? 'URL is malformed' : error.message
}
