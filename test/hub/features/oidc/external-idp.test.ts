import * as openid from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { IDP_AUDIENCE, IDP_ISSUER, IDP_USER, externalProvider } from '../../../helpers/external-provider.js'
import { type SigningKey, newSigningKey, signToken, startJwksServer } from '../../../helpers/jwks-server.js'
import { CookieBrowser, authorizationRequest, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'

describe.each(databasesUnderTest())('OpenID Connect provider under HUB_IDP=oidc, on $name', { timeout: 30_000 }, (database) => {
  let idpKey: SigningKey
  let idp: Awaited<ReturnType<typeof startJwksServer>>
  beforeAll(async () => {
    idpKey = await newSigningKey('idp-key-1', 'ES256')
    idp = await startJwksServer([idpKey])
  })
  afterAll(() => idp?.close())
  const hub = useHubOnPort(database, () => ({ config: externalProvider(idp.url) }))

  it('signs a person in through the hub session the external provider opened, with its email, while that session lives', async () => {
    const secret = await registerClient(hub.handle, { id: 'family-wiki', firstParty: true })
    const config = await relyingParty(hub.issuer, 'family-wiki', secret)
    const browser = new CookieBrowser(hub.issuer)
    const idToken = await signToken(idpKey, { iss: IDP_ISSUER, aud: IDP_AUDIENCE, sub: IDP_USER, email: 'ada@idp.test', email_verified: true }, '1h')
    const signedIn = await browser.request(`${hub.issuer}/api/auth/set-cookie`, {
      method: 'POST',
      body: JSON.stringify({ userId: IDP_USER, idToken }),
      headers: { 'content-type': 'application/json' }
    })
    expect(signedIn.status).toBe(200)

    const request = await authorizationRequest(config)
    const { left } = await browser.follow(request.url.href)
    const tokens = await openid.authorizationCodeGrant(config, left as URL, request.checks)
    expect(await openid.fetchUserInfo(config, tokens.access_token, IDP_USER)).toMatchObject({ sub: IDP_USER, email: 'ada@idp.test', email_verified: true })

    // The hub keeps no account of its own here: with the person's last session gone, so are they.
    const csrf = browser.cookies.get('service-csrf-token') ?? ''
    expect((await browser.request(`${hub.issuer}/api/auth/refresh`, { method: 'DELETE', headers: { 'x-csrf-token': csrf } })).status).toBe(204)
    await expect(openid.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
  })
})
