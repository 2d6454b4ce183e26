/**
 * What a stored report may keep. Reports come from any browser on the internet, so every string is
 * bounded, and URIs lose what tends to carry personal data: query strings, fragments, credentials,
 * and the payload of data:/blob:-style URIs.
 */

import { truncate, withoutControlCharacters } from '../../kernel/http/storable-text.js'

export const MAX_URI_LENGTH = 2048
export const MAX_DIRECTIVE_LENGTH = 128

/** `https://user:pw@example.com/a?b#c` → `https://example.com/a`; `data:text/html,...` → `data`. */
export function storableUri(uri: string): string {
  return truncate(withoutPersonalParts(withoutControlCharacters(uri).trim()), MAX_URI_LENGTH)
}

/** `script-src 'self' https://cdn` (CSP 2's violated-directive lists its sources) → `script-src`. */
export function storableDirective(directive: string): string {
  const name = directive.trim().split(/\s+/)[0] ?? ''
  return truncate(withoutControlCharacters(name).toLowerCase(), MAX_DIRECTIVE_LENGTH)
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
