/** Where a page sends a person who signed in without asking for a particular page. */
export const DEFAULT_LANDING_PATH = '/dashboard'

const MAX_NEXT_PATH_LENGTH = 512
const PLACEHOLDER_ORIGIN = 'https://hub.invalid'

/**
 * The `next` parameter as a path on this site, or undefined when it could lead elsewhere.
 *
 * Resolving normalises the path, and normalising can make a site path into another host's
 * (`/..//evil.com` becomes `//evil.com`), so the rule is applied to what would be returned as
 * well: only a path that passes it and comes back unchanged is returned.
 */
export function safeNextPath(raw: unknown): string | undefined {
  const path = normalisedSitePath(raw)
  return path !== undefined && normalisedSitePath(path) === path ? path : undefined
}

/**
 * Browsers read `//host`, `/\host` and `\\host` as another host, and strip tabs and newlines
 * before doing so, so only a single `/` followed by something other than `/` or `\` is kept,
 * after refusing control characters. The value is resolved against a placeholder origin and
 * must stay on it: that catches whatever a browser would read as leaving the site.
 */
function normalisedSitePath(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_NEXT_PATH_LENGTH) return undefined
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return undefined
  if (!raw.startsWith('/') || raw.startsWith('//')) return undefined
  let resolved: URL
  try {
    resolved = new URL(raw, PLACEHOLDER_ORIGIN)
  } catch {
    return undefined
  }
  if (resolved.origin !== PLACEHOLDER_ORIGIN) return undefined
  return resolved.pathname + resolved.search + resolved.hash
}

/** The login page that comes back to `path` after signing in. */
export function loginPathReturningTo(path: string): string {
  return `/login?${new URLSearchParams({ next: path }).toString()}`
}
