import * as openid from 'openid-client'
import { beforeAll, describe, expect, it } from 'vitest'
import { createGroups } from '../../../../src/hub/features/groups/service.js'
import { createOidcClients } from '../../../../src/hub/features/oidc/clients.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { uniqueEmail } from '../../../helpers/hub-app.js'
import { CookieBrowser, RP_CALLBACK, authorizationRequest, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'

/** Changes made from the terminal: nobody's trail names an administrator. */
const OPERATOR = { record: async () => {} }

describe.each(databasesUnderTest())('applications limited to groups, with openid-client, on $name', { timeout: 30_000 }, (database) => {
  const hub = useHubOnPort(database)
  let grafana: openid.Configuration
  let family: { id: string; name: string }
  let admins: { id: string; name: string }
  const groups = () => createGroups(hub.handle.db, () => new Date())

  beforeAll(async () => {
    family = await groups().create({ name: 'family' }, OPERATOR)
    admins = await groups().create({ name: 'admins' }, OPERATOR)
    const secret = await registerClient(hub.handle, { id: 'grafana', name: 'Grafana', firstParty: true, allowedGroups: ['Family', 'admins'] })
    grafana = await relyingParty(hub.issuer, 'grafana', secret)
  })

  const member = async (...of: { id: string }[]) => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('allowed'))
    for (const group of of) await groups().addMember(group.id, userId, OPERATOR)
    return { browser, userId }
  }
  const signIn = async (browser: CookieBrowser, scope = 'openid email groups') => {
    const request = await authorizationRequest(grafana, scope)
    const { left, page } = await browser.follow(request.url.href)
    expect(left, page?.html).toBeDefined()
    return openid.authorizationCodeGrant(grafana, left as URL, request.checks)
  }

  it('stores the groups by id and shows them by name: a limit given in any case', async () => {
    const client = await createOidcClients(hub.handle.db).find('grafana')
    expect(client).toMatchObject({ allowedGroups: ['admins', 'family'], limitedToGroups: true })
  })

  it('signs in a member of any one of the groups', async () => {
    const { browser, userId } = await member(admins)
    const tokens = await signIn(browser)
    expect(tokens.claims()?.groups).toEqual(['admins'])
    expect(await openid.fetchUserInfo(grafana, tokens.access_token, userId)).toMatchObject({ sub: userId, groups: ['admins'] })
  })

  it('shows a person in none of the groups a page saying so, then sends access_denied to the application', async () => {
    const { browser } = await member()
    const request = await authorizationRequest(grafana)
    const { page, left } = await browser.follow(request.url.href)
    expect(left).toBeUndefined()
    expect(page?.status).toBe(403)
    expect(page?.html).toContain('You don’t have access to Grafana')
    expect(page?.html).toContain('Ask the person who runs this hub to add you.')
    expect(page?.headers.get('content-security-policy')).toContain(`form-action 'self' ${new URL(RP_CALLBACK).origin}`)
    const spanish = await (await browser.request(page?.url ?? '', { headers: { 'accept-language': 'es' } })).text()
    expect(spanish).toContain('No tienes acceso a Grafana')
    expect(spanish).toContain('Volver a Grafana')

    const action = /<form method="post" action="([^"]+)"/.exec(page?.html ?? '')?.[1] ?? ''
    expect(action).toMatch(/\/not-admitted$/)
    const back = await browser.postForm(new URL(action, hub.issuer).href, {})
    expect(back.left?.href.startsWith(RP_CALLBACK)).toBe(true)
    expect(back.left?.searchParams.get('error')).toBe('access_denied')
    expect(back.left?.searchParams.get('state')).toBe(request.checks.expectedState)
    await expect(openid.authorizationCodeGrant(grafana, back.left as URL, request.checks)).rejects.toMatchObject({ error: 'access_denied' })
  })

  it('refuses the not-admitted form of another person’s or no sign-in step', async () => {
    const response = await fetch(`${hub.issuer}/oidc/interaction/nothing/not-admitted`, { method: 'POST', body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' })
    expect(response.status).toBe(400)
  })

  it('refuses a refresh, userinfo and introspection of tokens issued before the person left the group, and the next sign-in', async () => {
    const { browser, userId } = await member(family)
    const tokens = await signIn(browser)
    expect(tokens.refresh_token).toBeDefined()

    await groups().removeMember(family.id, userId, OPERATOR)

    await expect(openid.refreshTokenGrant(grafana, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
    const userinfo = await fetch(`${hub.issuer}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(userinfo.status).toBe(401)
    expect(userinfo.headers.get('www-authenticate')).toContain('error="invalid_token"')
    expect(await openid.tokenIntrospection(grafana, tokens.access_token)).toEqual({ active: false })

    // A grant already given asks nothing again: the refusal is checked at every authorization request.
    const again = await browser.follow((await authorizationRequest(grafana)).url.href)
    expect(again.page?.html).toContain('You don’t have access to Grafana')
    // An application asking silently hears access_denied at once.
    const silent = await authorizationRequest(grafana)
    silent.url.searchParams.set('prompt', 'none')
    expect((await browser.follow(silent.url.href)).left?.searchParams.get('error')).toBe('access_denied')

    // Back in the group, the same person signs in again.
    await groups().addMember(family.id, userId, OPERATOR)
    expect((await signIn(browser)).claims()?.sub).toBe(userId)
  })

  it('keeps the limit through a rename; a deleted group admits nobody, even when it was the last one', async () => {
    const clients = createOidcClients(hub.handle.db)
    const kept = await groups().create({ name: 'kept' }, OPERATOR)
    const gone = await groups().create({ name: 'gone' }, OPERATOR)
    const secret = await registerClient(hub.handle, { id: 'immich', name: 'Immich', firstParty: true, allowedGroups: ['kept'] })
    const immich = await relyingParty(hub.issuer, 'immich', secret)
    const { browser, userId } = await member(kept, gone)

    await groups().update(kept.id, { name: 'kept renamed' }, OPERATOR)
    expect((await clients.find('immich'))?.allowedGroups).toEqual(['kept renamed'])
    const request = await authorizationRequest(immich)
    const { left } = await browser.follow(request.url.href)
    expect((await openid.authorizationCodeGrant(immich, left as URL, request.checks)).claims()?.sub).toBe(userId)

    await clients.update('immich', { allowedGroups: ['gone'] })
    await groups().remove(gone.id, OPERATOR)
    expect(await clients.find('immich')).toMatchObject({ allowedGroups: [], limitedToGroups: true })
    expect(await clients.allows('immich', userId)).toBe(false)
    expect((await browser.follow((await authorizationRequest(immich)).url.href)).page?.html).toContain('You don’t have access to Immich')

    // Choosing no group opens it to everyone again.
    const { client, changed } = await clients.update('immich', { allowedGroups: [] })
    expect(changed).toEqual(['allowedGroups'])
    expect(client).toMatchObject({ allowedGroups: [], limitedToGroups: false })
    expect(await clients.allows('immich', userId)).toBe(true)
  })

  it('refuses a group name no group has, naming it', async () => {
    const clients = createOidcClients(hub.handle.db)
    await expect(registerClient(hub.handle, { id: 'nextcloud', allowedGroups: ['family', 'nobody-here'] })).rejects.toMatchObject({
      problem: 'unknown-group',
      message: 'No group is named "nobody-here": make it first (groups:add or the console\'s Groups)'
    })
    expect(await clients.find('nextcloud')).toBeUndefined()
    await expect(clients.update('grafana', { allowedGroups: ['nope'] })).rejects.toMatchObject({ problem: 'unknown-group' })
  })
})
