import type { JWTPayload } from 'jose'
import { afterAll, beforeAll, expect } from 'vitest'
import type { HubConfig } from '../../src/shared/config.js'
import type { App } from '../../src/shared/http/server.js'
import type { DatabaseUnderTest, TestDatabase } from './databases.js'
import { buildTestHubApp } from './hub-app.js'
import { type SigningKey, newSigningKey, signToken, startJwksServer } from './jwks-server.js'

export const IDP_ISSUER = 'https://idp.test/'
export const IDP_AUDIENCE = 'hearth-web'
export const IDP_USER = 'idp-user-1'
export const IDP_EMAIL = 'ada@idp.test'

/** `HUB_IDP=oidc` pointed at the provider the test plays, whose keys are published at `jwksUrl`. */
export function externalProvider(jwksUrl: URL): Pick<HubConfig, 'identityProvider'> {
  return { identityProvider: { kind: 'oidc', jwksUrl, issuer: IDP_ISSUER, audience: IDP_AUDIENCE } }
}

/**
 * A hub whose people sign in at an external OpenID Connect provider, which the test plays: a JWKS
 * on loopback and the key that signs its ID tokens. Opened before the suite's tests, closed after.
 */
export function useHubWithExternalProvider(database: DatabaseUnderTest) {
  const suite = {} as { handle: TestDatabase; app: App; idpKey: SigningKey; idp: Awaited<ReturnType<typeof startJwksServer>> }
  beforeAll(async () => {
    suite.handle = await database.open()
    suite.idpKey = await newSigningKey('idp-key-1', 'ES256')
    suite.idp = await startJwksServer([suite.idpKey])
    suite.app = await buildTestHubApp(suite.handle, { config: externalProvider(suite.idp.url) })
  })
  afterAll(async () => {
    await suite.app?.close()
    await suite.idp?.close()
    await suite.handle?.destroy()
  })
  /** An ID token as the provider would issue it, for IDP_USER unless the claims say otherwise. */
  const idToken = (claims: JWTPayload = {}, key: SigningKey = suite.idpKey, expiresIn: string | number = '1h') =>
    signToken(key, { iss: IDP_ISSUER, aud: IDP_AUDIENCE, sub: IDP_USER, ...claims }, expiresIn)
  return {
    get app() {
      return suite.app
    },
    get handle() {
      return suite.handle
    },
    get idpKey() {
      return suite.idpKey
    },
    idToken,
    /** A sign-in with the provider's ID token for `claims` (IDP_USER with IDP_EMAIL by default), as the page sends it: set-cookie's 200. */
    signIn: async (claims: JWTPayload = { email: IDP_EMAIL }) => {
      const response = await suite.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: claims.sub ?? IDP_USER, idToken: await idToken(claims) } })
      expect(response.statusCode, response.body).toBe(200)
      return response
    }
  }
}
