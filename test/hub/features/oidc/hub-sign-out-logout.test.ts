import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { type JWTPayload, createLocalJWKSet, decodeJwt, jwtVerify } from 'jose'
import * as openid from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setAccountDisabled } from '../../../../src/hub/kernel/accounts/account-status.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, uniqueEmail } from '../../../helpers/hub-app.js'
import { CookieBrowser, authorizationRequest, registerClient, relyingParty, startBackchannelReceiver, useHubOnPort } from '../../../helpers/oidc-relying-party.js'

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout'

/** A back-channel logout URI that takes the request and never answers: an application that hangs. */
async function startHangingReceiver() {
  const received: string[] = []
  const server = http.createServer((request) => {
    received.push(request.url ?? '')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/backchannel-logout`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Long enough for the hub's background round (every 2 s) to get to an ended session. */
const ROUND = { timeout: 10_000 }

describe.each(databasesUnderTest())('Hub sign-out ends the provider session, with back-channel logouts, on $name', { timeout: 60_000 }, (database) => {
  const hub = useHubOnPort(database)
  let receiver: Awaited<ReturnType<typeof startBackchannelReceiver>>
  let hanging: Awaited<ReturnType<typeof startHangingReceiver>>
  let wiki: openid.Configuration
  let stuck: openid.Configuration

  beforeAll(async () => {
    receiver = await startBackchannelReceiver()
    hanging = await startHangingReceiver()
    wiki = await relyingParty(hub.issuer, 'wiki', await registerClient(hub.handle, { id: 'wiki', firstParty: true, backchannelLogoutUri: receiver.url }))
    stuck = await relyingParty(hub.issuer, 'stuck', await registerClient(hub.handle, { id: 'stuck', firstParty: true, backchannelLogoutUri: hanging.url }))
  })
  afterAll(async () => {
    await receiver?.close()
    await hanging?.close()
  })

  const signInTo = async (config: openid.Configuration, browser: CookieBrowser, scope?: string) => {
    const request = await authorizationRequest(config, scope)
    // oidc-provider grants offline_access only when consent is asked for.
    if (scope?.includes('offline_access')) request.url.searchParams.set('prompt', 'consent')
    const { left } = await browser.follow(request.url.href)
    return openid.authorizationCodeGrant(config, left as URL, request.checks)
  }
  const csrfOf = (browser: CookieBrowser) => ({ 'x-csrf-token': browser.cookies.get('service-csrf-token') ?? '' })
  const signOut = (browser: CookieBrowser) => browser.request(`${hub.issuer}/api/auth/refresh`, { method: 'DELETE', headers: csrfOf(browser) })
  /** The logout token the wiki received for this person, verified with the hub's JWKS. */
  const logoutTokenFor = async (userId: string): Promise<JWTPayload> => {
    const received = () => receiver.logoutTokens.find((candidate) => decodeJwt(candidate).sub === userId)
    await expect.poll(received, ROUND).toBeDefined()
    const token = received() ?? ''
    const jwks = (await (await fetch(`${hub.issuer}/.well-known/jwks.json`)).json()) as Parameters<typeof createLocalJWKSet>[0]
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: hub.issuer, audience: 'wiki', typ: 'logout+jwt' })
    return payload
  }
  const providerSessionsOf = (userId: string) =>
    hub.handle.db.selectFrom('oidcProviderRecords').select('id').where('model', '=', 'Session').where('accountId', '=', userId).execute()
  const providerSessionsEnd = (userId: string) => expect.poll(() => providerSessionsOf(userId), ROUND).toEqual([])

  it('signing out at the hub sends the application a valid logout token for the session, and its refresh token ends', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('bcl'))
    const tokens = await signInTo(wiki, browser)
    expect(await providerSessionsOf(userId)).toHaveLength(1)

    expect((await signOut(browser)).status).toBe(204)
    const logout = await logoutTokenFor(userId)
    expect(logout).toMatchObject({ iss: hub.issuer, aud: 'wiki', sub: userId, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } })
    expect(logout.sid).toEqual(expect.any(String))
    expect(logout.sid).toBe(tokens.claims()?.sid)
    expect(logout.nonce).toBeUndefined()
    await providerSessionsEnd(userId)
    await expect(openid.refreshTokenGrant(wiki, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('keeps an application’s offline_access refresh token across the sign-out, and still sends it the logout', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('bcl'))
    const tokens = await signInTo(wiki, browser, 'openid offline_access')
    expect(tokens.scope).toContain('offline_access')
    expect((await signOut(browser)).status).toBe(204)
    expect((await logoutTokenFor(userId)).sub).toBe(userId)
    await providerSessionsEnd(userId)
    await expect(openid.refreshTokenGrant(wiki, tokens.refresh_token ?? '')).resolves.toMatchObject({ refresh_token: expect.any(String) })
  })

  it('ending a session from the account (another device) logs out the applications of that session only', async () => {
    const email = uniqueEmail('bcl')
    const laptop = new CookieBrowser(hub.issuer)
    const userId = await laptop.signUpAndIn(email)
    const laptopTokens = await signInTo(wiki, laptop)
    const phone = new CookieBrowser(hub.issuer)
    const login = await phone.request(`${hub.issuer}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email, password: GOOD_PASSWORD }),
      headers: { 'content-type': 'application/json' }
    })
    expect(login.status).toBe(200)
    const phoneTokens = await signInTo(wiki, phone)

    const { sessions } = (await (await phone.request(`${hub.issuer}/api/account/sessions`)).json()) as { sessions: { id: string; current: boolean }[] }
    const laptopSession = sessions.find((session) => !session.current)
    const ended = await phone.request(`${hub.issuer}/api/account/sessions/${encodeURIComponent(laptopSession?.id ?? '')}`, { method: 'DELETE', headers: csrfOf(phone) })
    expect(ended.status).toBe(204)

    const logout = await logoutTokenFor(userId)
    expect(logout.sid).toBe(laptopTokens.claims()?.sid)
    await expect(openid.refreshTokenGrant(wiki, laptopTokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
    // The phone's provider session and tokens go on.
    expect(await providerSessionsOf(userId)).toHaveLength(1)
    expect(receiver.logoutTokens.filter((token) => decodeJwt(token).sub === userId)).toHaveLength(1)
    await expect(openid.refreshTokenGrant(wiki, phoneTokens.refresh_token ?? '')).resolves.toMatchObject({ refresh_token: expect.any(String) })
  })

  it('disabling the account (users:disable) logs out its applications', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const email = uniqueEmail('bcl')
    const userId = await browser.signUpAndIn(email)
    await signInTo(wiki, browser)
    await setAccountDisabled(hub.handle.db, email, true, new Date())
    expect((await logoutTokenFor(userId)).sub).toBe(userId)
    await providerSessionsEnd(userId)
  })

  it('deleting the account logs out its applications, and then no provider record of it is left', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('bcl'))
    await signInTo(wiki, browser)
    const deleted = await browser.request(`${hub.issuer}/api/account`, {
      method: 'DELETE',
      body: JSON.stringify({ password: GOOD_PASSWORD }),
      headers: { 'content-type': 'application/json', ...csrfOf(browser) }
    })
    expect(deleted.status).toBe(204)
    expect((await logoutTokenFor(userId)).sub).toBe(userId)
    await providerSessionsEnd(userId)
    expect(await hub.handle.db.selectFrom('oidcProviderRecords').select('id').where('accountId', '=', userId).execute()).toEqual([])
  })

  it('an application that never answers neither fails nor holds up the sign-out, nor the other applications’ logouts', async () => {
    const browser = new CookieBrowser(hub.issuer)
    const userId = await browser.signUpAndIn(uniqueEmail('bcl'))
    await signInTo(stuck, browser)
    await signInTo(wiki, browser)
    const waitingBefore = hanging.received.length

    // The sign-out sends no logout itself: delivery is the background round's.
    expect((await signOut(browser)).status).toBe(204)

    // The hanging application is tried, and the other one is told all the same.
    await expect.poll(() => hanging.received.length, ROUND).toBeGreaterThan(waitingBefore)
    expect((await logoutTokenFor(userId)).sub).toBe(userId)
    await providerSessionsEnd(userId)
    expect((await browser.request(`${hub.issuer}/api/account/sessions`)).status).toBe(401)
  })
})
