import * as openid from 'openid-client'
import { beforeAll, describe, expect, it } from 'vitest'
import { signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, uniqueEmail } from '../../../helpers/hub-app.js'
import { CookieBrowser, RP_CALLBACK, RP_ORIGIN, authorizationRequest, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'

const CLIENTS = '/api/admin/clients'
const OTHER_CALLBACK = `${RP_ORIGIN}/other-callback`

/**
 * What an administrator does through the API counts at once in the running provider, which reads
 * a client through its adapter on each use: no restart, no cache to wait for.
 */
describe.each(databasesUnderTest())('applications changed through the admin API, in the running provider, on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database)
  let admin: SignedIn
  let browser: CookieBrowser

  beforeAll(async () => {
    admin = await signUpAdministrator(hub.app, hub.handle.db)
    browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc-admin'))
  })

  const api = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => hub.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) })
  /** The code flow through a signed-in browser to the tokens, or where the browser stopped instead. */
  const codeFlow = async (config: openid.Configuration) => {
    const request = await authorizationRequest(config)
    const { left, page } = await browser.follow(request.url.href)
    if (!left || left.href.split('?')[0] !== RP_CALLBACK) return { refused: page ?? left }
    return { tokens: await openid.authorizationCodeGrant(config, left, request.checks) }
  }

  it('signs in through a client as soon as it is added', async () => {
    const added = await api('POST', CLIENTS, { clientId: 'added-live', name: 'Added live', firstParty: true, redirectUris: [RP_CALLBACK] })
    expect(added.statusCode).toBe(201)
    const { tokens } = await codeFlow(await relyingParty(hub.issuer, 'added-live', added.json<{ secret: string }>().secret))
    expect(tokens?.claims()?.aud).toBe('added-live')
  })

  it('refuses the old secret at once after a rotation, and takes the new one', async () => {
    const { secret: old } = (await api('POST', CLIENTS, { clientId: 'rotated-live', firstParty: true, redirectUris: [RP_CALLBACK] })).json<{ secret: string }>()
    const before = await codeFlow(await relyingParty(hub.issuer, 'rotated-live', old))
    expect(before.tokens?.refresh_token).toBeDefined()

    const { secret } = (await api('POST', `${CLIENTS}/rotated-live/secret`)).json<{ secret: string }>()
    const withOld = await relyingParty(hub.issuer, 'rotated-live', old)
    await expect(openid.refreshTokenGrant(withOld, before.tokens?.refresh_token ?? '')).rejects.toMatchObject({ status: 401, cause: [{ parameters: { error: 'invalid_client' } }] })
    await expect(codeFlow(withOld)).rejects.toMatchObject({ status: 401 })

    const withNew = await relyingParty(hub.issuer, 'rotated-live', secret)
    expect((await codeFlow(withNew)).tokens?.access_token).toBeDefined()
    // A token issued before the rotation is refreshed with the new secret.
    expect((await openid.refreshTokenGrant(withNew, before.tokens?.refresh_token ?? '')).access_token).toBeDefined()
  })

  it('accepts a redirect URI as soon as a change adds it, and refuses one a change took away', async () => {
    const { secret } = (await api('POST', CLIENTS, { clientId: 'patched-live', firstParty: true, redirectUris: [RP_CALLBACK] })).json<{ secret: string }>()
    const config = await relyingParty(hub.issuer, 'patched-live', secret)
    const toOther = async () => {
      const verifier = openid.randomPKCECodeVerifier()
      const url = openid.buildAuthorizationUrl(config, {
        redirect_uri: OTHER_CALLBACK,
        scope: 'openid',
        code_challenge: await openid.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: openid.randomState()
      })
      return browser.follow(url.href)
    }
    const refused = await toOther()
    expect(refused.left).toBeUndefined()
    expect(refused.page?.html).toContain('redirect_uri')

    expect((await api('PATCH', `${CLIENTS}/patched-live`, { redirectUris: [OTHER_CALLBACK] })).statusCode).toBe(200)
    expect((await toOther()).left?.href.split('?')[0]).toBe(OTHER_CALLBACK)
    expect((await codeFlow(config)).refused).toBeDefined()
  })

  it('ends a client’s sign-ins and tokens as soon as it is removed', async () => {
    const { secret } = (await api('POST', CLIENTS, { clientId: 'removed-live', firstParty: true, redirectUris: [RP_CALLBACK] })).json<{ secret: string }>()
    const config = await relyingParty(hub.issuer, 'removed-live', secret)
    const { tokens } = await codeFlow(config)
    expect(tokens?.refresh_token).toBeDefined()

    expect((await api('DELETE', `${CLIENTS}/removed-live`)).statusCode).toBe(204)
    const refused = await codeFlow(config)
    expect(refused.refused).toBeDefined()
    expect(refused.tokens).toBeUndefined()
    await expect(openid.refreshTokenGrant(config, tokens?.refresh_token ?? '')).rejects.toMatchObject({ status: 401 })
    const userinfo = await fetch(`${hub.issuer}/oidc/me`, { headers: { authorization: `Bearer ${tokens?.access_token}` } })
    expect(userinfo.status).toBe(401)
  })
})
