import type { FastifyRequest } from 'fastify'

/** The request's path without the query string, as the router and our path rules see it. */
export function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? ''
}

/** True for `prefix` itself and anything below it (`/api/privacy` covers `/api/privacy/settings`). */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`)
}
