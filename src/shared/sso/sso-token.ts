/** What the hub and the applications agree an SSO token is: the hub signs by these, applications check them. */

/** Long enough to navigate to another application, short enough that a leaked token is soon useless. */
export const SSO_TOKEN_LIFETIME_SECONDS = 5 * 60

/**
 * The `typ` header of every SSO token (RFC 8725 3.11, explicit typing). The hub signs its ID tokens
 * with the same keys; this header, not the claims alone, is what tells an SSO token from them.
 */
export const SSO_TOKEN_TYPE = 'hearth-sso+jwt'
