import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { buildTestHubApp, cookieHeader, cookiesSetBy } from '../../../helpers/hub-app.js'
import { IDP_AUDIENCE, externalProvider, useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { newSigningKey, startJwksServer } from '../../../helpers/jwks-server.js'

describe.each(databasesUnderTest())('external OpenID Connect provider on $name', (database) => {
  const idp = useHubWithExternalProvider(database)
  const { idToken } = idp

  const setCookie = (payload: object) => idp.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload })

  /** Signs in with the provider's token, then asks for an SSO token: its claims. */
  const ssoClaimsAfterSignIn = async (token: string) => {
    const response = await setCookie({ userId: 'idp-user-1', idToken: token })
    expect(response.statusCode, response.body).toBe(200)
    const cookies = cookiesSetBy(response)
    const csrfToken = cookies['service-csrf-token']?.value ?? ''
    const sso = await idp.app.inject({
      method: 'POST',
      url: '/api/auth/generate-token',
      headers: { cookie: cookieHeader({ 'service-auth-token': cookies['service-auth-token']?.value, 'service-csrf-token': csrfToken }), 'x-csrf-token': csrfToken },
      payload: { audience: 'tasks' }
    })
    expect(sso.statusCode, sso.body).toBe(200)
    return JSON.parse(Buffer.from(sso.json<{ token: string }>().token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>
  }

  it("signs in with the provider's ID token, and SSO tokens carry its email", async () => {
    const claims = await ssoClaimsAfterSignIn(await idToken({ email: 'ada@idp.test', email_verified: true }))
    expect(claims).toMatchObject({ sub: 'idp-user-1', email: 'ada@idp.test', email_verified: true, aud: 'tasks' })
  })

  // Attack: an unverified address at the provider passed on as if it were proven, so an application
  // trusting the email would hand someone else's data to whoever typed that address at sign-up.
  it.each([
    ['false', false],
    ['missing', undefined],
    ['the string "true"', 'true']
  ])('passes email_verified on as false when the provider says %s', async (_case, emailVerified) => {
    const claims = await ssoClaimsAfterSignIn(await idToken({ email: 'ada@idp.test', email_verified: emailVerified }))
    expect(claims).toMatchObject({ email: 'ada@idp.test', email_verified: false })
  })

  // Attack: a token the provider issued to another client, which lists us among its audiences.
  it.each([
    ['several audiences and no azp', { aud: [IDP_AUDIENCE, 'other-client'] }],
    ['several audiences, azp another client', { aud: [IDP_AUDIENCE, 'other-client'], azp: 'other-client' }],
    ['one audience, azp another client', { azp: 'other-client' }]
  ])('refuses a token with %s: 401 (OIDC Core 3.1.3.7)', async (_case, claims) => {
    const response = await setCookie({ userId: 'idp-user-1', idToken: await idToken(claims) })
    expect(response.statusCode).toBe(401)
    expect(cookiesSetBy(response)['service-auth-token']).toBeUndefined()
  })

  it.each([
    ['several audiences, azp us', { aud: [IDP_AUDIENCE, 'other-client'], azp: IDP_AUDIENCE }],
    ['one audience, azp us', { azp: IDP_AUDIENCE }]
  ])('accepts a token with %s', async (_case, claims) => {
    expect((await setCookie({ userId: 'idp-user-1', idToken: await idToken(claims) })).statusCode).toBe(200)
  })

  it.each([
    ['another issuer', { iss: 'https://other-idp.test/' }],
    ['another audience', { aud: 'someone-else' }],
    ['another subject than the user id', { sub: 'idp-user-2' }]
  ])('refuses a token with %s: 401', async (_case, claims) => {
    const response = await setCookie({ userId: 'idp-user-1', idToken: await idToken(claims) })
    expect(response.statusCode).toBe(401)
    expect(cookiesSetBy(response)['service-auth-token']).toBeUndefined()
  })

  it('refuses a token signed by a key the provider does not publish, and an expired one: 401', async () => {
    const unpublished = await newSigningKey('idp-key-1', 'ES256')
    for (const token of [await idToken({}, unpublished), await idToken({}, idp.idpKey, '-1h')]) {
      const response = await setCookie({ userId: 'idp-user-1', idToken: token })
      expect(response.statusCode).toBe(401)
    }
  })

  it('does not serve the built-in provider: the external one checks passwords', async () => {
    const login = await idp.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.co', password: 'x' } })
    expect(login.statusCode).toBe(404)
    const signup = await idp.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'a@b.co', password: 'x' } })
    expect(signup.statusCode).toBe(404)
  })

  it("answers 503 when the provider's keys cannot be fetched", async () => {
    const closed = await startJwksServer([idp.idpKey])
    await closed.close()
    const unreachable = await buildTestHubApp(idp.handle, {
      config: externalProvider(closed.url)
    })
    const response = await unreachable.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: 'idp-user-1', idToken: await idToken({}) } })
    expect(response.statusCode).toBe(503)
    expect(response.json()).toEqual({ error: 'The identity provider cannot be reached' })
    await unreachable.close()
  })
})
