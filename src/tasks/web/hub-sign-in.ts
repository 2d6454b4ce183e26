import * as openid from 'openid-client'

/** Where the hub sends the browser back with the code, and where its sign-outs end. */
export const CALLBACK_PATH = '/auth/callback'
export const SIGNED_OUT_PATH = '/auth/signed-out'
export const BACKCHANNEL_LOGOUT_PATH = '/auth/backchannel-logout'

export interface HubSignInOptions {
  issuer: string
  clientId: string
  /** TASKS_PUBLIC_URL: the redirect URIs registered with the hub are under it. */
  publicUrl: string
}

/** What the browser keeps between leaving for the hub and coming back (the sign-in cookie). */
export interface PendingSignIn {
  codeVerifier: string
  state: string
  nonce: string
}

export type HubSignIn = ReturnType<typeof createHubSignIn>

/**
 * The task manager as an OpenID Connect client of the hub: authorization code with PKCE, a public
 * client (PKCE is its proof, so no secret has to travel between the two services). Discovery is
 * fetched on first use and again after a failure, so the task manager may start before the hub.
 */
export function createHubSignIn({ issuer, clientId, publicUrl }: HubSignInOptions) {
  const redirectUri = `${publicUrl}${CALLBACK_PATH}`
  let discovered: Promise<openid.Configuration> | undefined
  const configuration = (): Promise<openid.Configuration> => {
    discovered ??= openid
      .discovery(new URL(issuer), clientId, undefined, openid.None(), {
        // A hub on plain http is a development set-up (http://localhost:3001); https is otherwise required.
        ...(new URL(issuer).protocol === 'http:' ? { execute: [openid.allowInsecureRequests] } : {})
      })
      .catch((error: unknown) => {
        discovered = undefined
        throw error
      })
    return discovered
  }

  return {
    redirectUri,

    async start(): Promise<{ url: URL; pending: PendingSignIn }> {
      const config = await configuration()
      const pending = { codeVerifier: openid.randomPKCECodeVerifier(), state: openid.randomState(), nonce: openid.randomNonce() }
      const url = openid.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: await openid.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce
      })
      return { url, pending }
    },

    /** The hub's answer at the callback: the person's id at the hub and the hub session id. */
    async finish(callbackUrl: URL, pending: PendingSignIn): Promise<{ userId: string; hubSid: string | null }> {
      const tokens = await openid.authorizationCodeGrant(await configuration(), callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true
      })
      const claims = tokens.claims()
      if (!claims) throw new Error('the hub answered without an ID token')
      return { userId: claims.sub, hubSid: typeof claims.sid === 'string' ? claims.sid : null }
    },

    /** RP-initiated logout: the hub asks the person to confirm, signs them out, and sends them back. */
    async endSessionUrl(): Promise<URL> {
      return openid.buildEndSessionUrl(await configuration(), { client_id: clientId, post_logout_redirect_uri: `${publicUrl}${SIGNED_OUT_PATH}` })
    }
  }
}
