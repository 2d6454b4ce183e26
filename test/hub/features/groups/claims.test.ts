import { decodeJwt } from 'jose'
import * as openid from 'openid-client'
import { beforeAll, describe, expect, it } from 'vitest'
import { createGroups } from '../../../../src/hub/features/groups/service.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { CookieBrowser, authorizationRequest, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'

/** Changes made from the terminal: nobody's trail names an administrator. */
const OPERATOR = { record: async () => {} }

describe.each(databasesUnderTest())('groups in SSO tokens on $name', (database) => {
  const hub = useHubApp(database)

  const groupsIn = async (user: SignedIn) => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(response.statusCode, response.body).toBe(200)
    return decodeJwt(response.json<{ token: string }>().token).groups
  }

  it('carries the names of the person’s groups, an empty array when none, and follows renames and removals', async () => {
    const groups = createGroups(hub.handle.db, () => new Date())
    const user = await signUpAndLogIn(hub.app, uniqueEmail('sso-groups'))
    expect(await groupsIn(user)).toEqual([])

    const family = await groups.create({ name: `Family ${user.userId.slice(0, 6)}` }, OPERATOR)
    const admins = await groups.create({ name: `admins ${user.userId.slice(0, 6)}` }, OPERATOR)
    await groups.addMember(family.id, user.userId, OPERATOR)
    await groups.addMember(admins.id, user.userId, OPERATOR)
    expect(await groupsIn(user)).toEqual([admins.name, family.name])

    await groups.update(family.id, { name: `Household ${user.userId.slice(0, 6)}` }, OPERATOR)
    await groups.removeMember(admins.id, user.userId, OPERATOR)
    expect(await groupsIn(user)).toEqual([`Household ${user.userId.slice(0, 6)}`])
  })
})

describe.each(databasesUnderTest())('the OpenID Connect groups scope on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database)
  let client: openid.Configuration

  beforeAll(async () => {
    const secret = await registerClient(hub.handle, { id: 'grafana', name: 'Grafana', firstParty: true })
    client = await relyingParty(hub.issuer, 'grafana', secret)
  })

  const signIn = async (browser: CookieBrowser, scope: string) => {
    const request = await authorizationRequest(client, scope)
    const { left, page } = await browser.follow(request.url.href)
    expect(left, page?.html).toBeDefined()
    return openid.authorizationCodeGrant(client, left as URL, request.checks)
  }

  it('is offered in discovery', () => {
    expect(client.serverMetadata().scopes_supported).toContain('groups')
    expect(client.serverMetadata().claims_supported).toContain('groups')
  })

  it('puts groups in the ID token and userinfo with scope groups: the names, an empty array when none', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc-groups'))

    const none = await signIn(browser, 'openid groups')
    expect(none.claims()?.groups).toEqual([])
    expect((await openid.fetchUserInfo(client, none.access_token, userId)).groups).toEqual([])

    const groups = createGroups(hub.handle.db, () => new Date())
    const family = await groups.create({ name: `family-${userId.slice(0, 8)}` }, OPERATOR)
    await groups.addMember(family.id, userId, OPERATOR)
    // The same access token's userinfo says the new membership: claims are read as answered.
    expect((await openid.fetchUserInfo(client, none.access_token, userId)).groups).toEqual([family.name])

    const member = await signIn(browser, 'openid email groups')
    expect(member.claims()?.groups).toEqual([family.name])
    expect(await openid.fetchUserInfo(client, member.access_token, userId)).toMatchObject({ sub: userId, groups: [family.name] })
  })

  it('gives no groups claim without the scope', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('oidc-no-groups'))
    const tokens = await signIn(browser, 'openid email')
    expect(tokens.claims()).not.toHaveProperty('groups')
    expect(await openid.fetchUserInfo(client, tokens.access_token, userId)).not.toHaveProperty('groups')
  })

  it('names the groups scope on a third-party application’s consent page, in English and Spanish', async () => {
    await registerClient(hub.handle, { id: 'photo-wall', name: 'Photo wall', public: true })
    const thirdParty = await relyingParty(hub.issuer, 'photo-wall', null)
    const browser = new CookieBrowser(hub.issuer)
    await browser.signUpAndIn(uniqueEmail('oidc-groups-consent'))
    const { page } = await browser.follow((await authorizationRequest(thirdParty, 'openid groups')).url.href)
    expect(page?.html).toContain('Allow Photo wall to sign you in?')
    expect(page?.html).toContain('The names of the groups you are in')
    const spanish = await (await browser.request(page?.url ?? '', { headers: { 'accept-language': 'es' } })).text()
    expect(spanish).toContain('Los nombres de los grupos a los que perteneces')
  })
})
