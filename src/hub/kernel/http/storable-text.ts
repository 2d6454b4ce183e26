/**
 * Text the hub keeps from request headers and reports. PostgreSQL refuses NUL in text, and no
 * control character belongs in a user agent or a URI, so they are removed; lengths are bounded.
 */

export const MAX_USER_AGENT_LENGTH = 512

/** A `User-Agent` as sessions, the audit trail and CSP reports keep it. */
export function storableUserAgent(userAgent: string): string {
  return truncate(withoutControlCharacters(userAgent), MAX_USER_AGENT_LENGTH)
}

export function withoutControlCharacters(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing them is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, '')
}

/** Cuts at a code point boundary, so a surrogate pair is never split in half. */
export function truncate(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text
  const cut = text.slice(0, maxLength)
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut
}
