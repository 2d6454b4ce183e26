// Letters, digits, dots, hyphens, underscores, a port and IPv6 brackets: anything else (a path, a
// user, a query, spaces) makes the value something other than a host, however a URL parser reads it.
const HOST_CHARACTERS = /^[\w.\-:[\]]+$/

/**
 * A `Host` value in one spelling, the WHATWG URL parser's: lowercase, IPv4 in dotted decimal, IPv6
 * in brackets, and without `:80`, since a Host without a port names HTTP's default one (RFC 9110
 * 7.2). Undefined when the value is not a host with an optional port.
 */
export function canonicalHost(value: string): string | undefined {
  if (!HOST_CHARACTERS.test(value)) return undefined
  try {
    return new URL(`http://${value}`).host
  } catch {
    return undefined
  }
}
