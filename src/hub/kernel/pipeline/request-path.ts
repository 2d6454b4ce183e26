import type { FastifyRequest } from 'fastify'

const QUERY_OR_FRAGMENT = /[?#]/

/**
 * The path the router matches: the part before `?` or `#`, percent-decoded as find-my-way
 * decodes it (decodeURI, which leaves reserved characters such as `%2F` encoded, and `%25` kept
 * as `%25`). Every path rule of the pipeline must see this path, not `request.url`: otherwise
 * `/%61pi/auth/refresh` reaches the refresh route while the stages take it for another path.
 * A path the router cannot decode never gets this far (it is answered 400 before routing).
 */
export function pathOf(request: FastifyRequest): string {
  const end = request.url.search(QUERY_OR_FRAGMENT)
  const raw = end === -1 ? request.url : request.url.slice(0, end)
  if (!raw.includes('%')) return raw
  try {
    return decodeURI(raw.replaceAll('%25', '%2525'))
  } catch {
    return raw
  }
}

/** True for `prefix` itself and anything below it (`/api/privacy` covers `/api/privacy/settings`). */
export function isUnder(path: string, prefix: string): boolean {
  return path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/')
}
