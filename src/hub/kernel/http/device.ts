import { parse as parseUserAgent } from 'bowser'

/** What a user agent says it runs on, as far as the parser recognises it. */
export interface Device {
  browser: string | null
  os: string | null
}

export function deviceOf(userAgent: string): Device {
  // The parser refuses an empty string; an empty user agent names nothing.
  if (!userAgent) return { browser: null, os: null }
  const { browser, os } = parseUserAgent(userAgent)
  return { browser: browser.name || null, os: os.name || null }
}

/** "Chrome on Linux", or whichever half is known, or null: the API's `device`. */
export function deviceName({ browser, os }: Device): string | null {
  if (browser && os) return `${browser} on ${os}`
  return browser ?? os
}
