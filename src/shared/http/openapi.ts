import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { OpenAPIV3_1 } from 'openapi-types'

export interface OpenApiOptions {
  title: string
  description: string
  version: string
  /** How callers authenticate; each scheme alone suffices unless a route says otherwise. */
  securitySchemes?: Record<string, OpenAPIV3_1.SecuritySchemeObject>
  /**
   * `swagger` (default): Swagger UI's pages get the policy @fastify/swagger-ui writes for them.
   * `app`: they keep the policy the app sets on every response; Swagger UI's files are local and
   * need no inline script or style, so a strict `'self'` policy lets it work.
   */
  docsCsp?: 'swagger' | 'app'
}

/**
 * OpenAPI 3.1 built from the route schemas, served at /openapi.json, with Swagger UI at /docs
 * served from the package's own files (no CDN).
 */
export const openApi = fp<OpenApiOptions>(
  async function openApi(app: FastifyInstance, options) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: options.title, description: options.description, version: options.version },
        components: { securitySchemes: options.securitySchemes ?? {} },
        security: Object.keys(options.securitySchemes ?? {}).map((name) => ({ [name]: [] }))
      }
    })
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: (options.docsCsp ?? 'swagger') === 'swagger',
      // Without the standalone top bar: its logo is an SVG with an inline <style>, which a strict
      // policy refuses and reports on every visit, and its box loads other services' documents.
      uiConfig: { layout: 'BaseLayout' }
    })
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  },
  { name: 'openapi' }
)
