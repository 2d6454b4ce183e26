import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { isUnder, pathOf } from './request-path.js'

/** What the stages of the pipeline read of a route's options (declared beside each stage). */
export type PipelineOptions = Pick<FastifyContextConfig, 'csrf' | 'session' | 'role'>

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * States the options of the paths at and below `prefix` that no route takes, so that the
     * pipeline treats them as it treats the routes there: `app.unknownPaths('/api/billing',
     * { session: 'required' })` answers an unknown path below `/api/billing` 401 when signed out,
     * as the routes there do, rather than a 404 that shows what exists. Once a prefix, at start.
     */
    unknownPaths(prefix: string, options: PipelineOptions): void
    /** The options a stage of the pipeline applies to a request (`routeOptions`). */
    pipelineOptionsOf(request: FastifyRequest): PipelineOptions
  }
}

/**
 * Where the stages find what a request's route asks of them. A request to a route: that route's
 * own options (`config`), as Fastify's router found them. A request no route takes (a 404, or an
 * OPTIONS request that is no preflight, which @fastify/cors's catch-all answers with the 404):
 * when other methods have routes at its path (a PUT to the login path, a GET to Stripe's webhook),
 * the options of those routes; else those stated for the unknown paths around it; else none.
 * The routes' options by path are gathered as routes are added, so register this before them.
 */
export const routeOptions = fp(
  async function routeOptions(app: FastifyInstance) {
    const byPath = new Map<string, PipelineOptions>()
    const spaces: { prefix: string; options: PipelineOptions }[] = []

    app.addHook('onRoute', ({ url, config }) => {
      if (url === undefined || /[:*]/.test(url)) return
      const known = byPath.get(url)
      // Several methods on one path: the strictest options hold for the methods none of them takes.
      byPath.set(url, {
        csrf: config?.csrf === false && (known === undefined || known.csrf === false) ? false : undefined,
        session: known?.session ?? config?.session,
        role: known?.role ?? config?.role
      })
    })

    app.decorate('unknownPaths', (prefix: string, options: PipelineOptions) => {
      if (spaces.some((space) => space.prefix === prefix)) throw new Error(`the unknown paths below ${prefix} are stated twice`)
      spaces.push({ prefix, options })
      // The longest prefix first: the nearest statement holds.
      spaces.sort((a, b) => b.prefix.length - a.prefix.length)
    })

    app.decorate('pipelineOptionsOf', (request: FastifyRequest): PipelineOptions => {
      const route = request.routeOptions
      if (route.url !== undefined && route.url !== '*') return route.config
      const path = pathOf(request)
      return byPath.get(path) ?? spaces.find((space) => isUnder(path, space.prefix))?.options ?? route.config
    })
  },
  { name: 'route-options' }
)
