/** Where the OpenID Connect provider's endpoints and its sign-in and consent steps live. */
export const OIDC_PATH_PREFIX = '/oidc'
export const DISCOVERY_PATH = '/.well-known/openid-configuration'

export function interactionPath(uid: string): string {
  return `${OIDC_PATH_PREFIX}/interaction/${encodeURIComponent(uid)}`
}
