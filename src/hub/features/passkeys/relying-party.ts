/** Who the hub is to an authenticator: the name shown at registration. */
const RELYING_PARTY_NAME = 'Hearth'

export interface RelyingParty {
  /** The host of HUB_PUBLIC_URL, without port: a passkey works on that host only. */
  id: string
  name: string
  /** The origin of HUB_PUBLIC_URL: the only page a ceremony is accepted from. */
  origin: string
}

/**
 * Derived from HUB_PUBLIC_URL alone, never from a request's Host: a passkey registered through
 * one name of the hub would not work through another, and a ceremony run on a page that is not
 * the hub's is refused.
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl)
  return { id: url.hostname, name: RELYING_PARTY_NAME, origin: url.origin }
}
