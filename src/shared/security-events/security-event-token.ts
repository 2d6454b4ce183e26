/**
 * What the hub and its applications agree a security event is (RFC 8417 Security Event Tokens,
 * pushed as RFC 8935 describes; docs/security-events.md): the hub signs by these, applications
 * check them.
 */

/** The `typ` header of a SET (RFC 8417 section 2.3), which no other token of the hub carries. */
export const SECURITY_EVENT_TOKEN_TYPE = 'secevent+jwt'
/** The media type a SET is pushed with (RFC 8935 section 2). */
export const SECURITY_EVENT_CONTENT_TYPE = 'application/secevent+jwt'

/** The OpenID RISC event types the hub sends. */
export const SECURITY_EVENT_TYPES = {
  accountPurged: 'https://schemas.openid.net/secevent/risc/event-type/account-purged',
  sessionsRevoked: 'https://schemas.openid.net/secevent/risc/event-type/sessions-revoked'
} as const
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[keyof typeof SECURITY_EVENT_TYPES]

/**
 * The hub signs each delivery attempt afresh (`iat` now, the same `jti`), so an application can
 * refuse a SET older than this: a token captured on the way is useless once it has passed, and the
 * application need remember a `jti` only that long.
 */
export const SECURITY_EVENT_MAX_AGE_SECONDS = 5 * 60

/** An RFC 9493 subject identifier in the `opaque` format: the hub's user id, as SSO tokens' `sub`. */
export interface OpaqueSubject {
  format: 'opaque'
  id: string
}

/** Where the task manager takes the hub's security events. */
export const TASKS_SECURITY_EVENTS_PATH = '/events/hearth'
