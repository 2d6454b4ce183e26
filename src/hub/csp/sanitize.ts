/**
 * What a stored report may keep. Reports come from any browser on the internet, so every string is
 * bounded, and URIs lose what tends to carry personal data: query strings, fragments, credentials,
 * and the payload of data:/blob:-style URIs.
 */

export const MAX_URI_LENGTH = 2048
export const MAX_DIRECTIVE_LENGTH = 128
export const MAX_USER_AGENT_LENGTH = 512

/** `https://user:pw@example.com/a?b#c` → `https://example.com/a`; `data:text/html,...` → `data`. */
export function storableUri(uri: string): string {
  return truncate(withoutPersonalParts(withoutControlCharacters(uri).trim()), MAX_URI_LENGTH)
}

/** `script-src 'self' https://cdn` (CSP 2's violated-directive lists its sources) → `script-src`. */
export function storableDirective(directive: string): string {
  const name = directive.trim().split(/\s+/)[0] ?? ''
  return truncate(withoutControlCharacters(name).toLowerCase(), MAX_DIRECTIVE_LENGTH)
}

export function storableUserAgent(userAgent: string): string {
  return truncate(withoutControlCharacters(userAgent), MAX_USER_AGENT_LENGTH)
}

function withoutPersonalParts(uri: string): string {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    // Keywords such as `inline`, `eval`, `self`, or a relative reference.
    return uri.split(/[?#]/, 1)[0] ?? ''
  }
  // An opaque URI (data:, blob:, javascript:, about:) is all payload: keep its scheme alone.
  if (url.host === '' && !url.pathname.startsWith('/')) return url.protocol.slice(0, -1)
  url.search = ''
  url.hash = ''
  url.username = ''
  url.password = ''
  return url.href
}

/** PostgreSQL refuses NUL in text, and no control character belongs in a URI or a user agent. */
function withoutControlCharacters(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing them is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, '')
}

/** Cuts at a code point boundary, so a surrogate pair is never split in half. */
export function truncate(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text
  const cut = text.slice(0, maxLength)
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut
}
