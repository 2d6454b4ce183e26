import { SignJWT, createLocalJWKSet, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/shared/http/server.js'
import { SSO_TOKEN_LIFETIME_SECONDS, SSO_TOKEN_TYPE } from '../../src/shared/sso/sso-token.js'
import { createSsoTokenVerifier } from '../../src/shared/sso/token-verifier.js'
import { type TestDatabase, databasesUnderTest } from '../helpers/databases.js'
import { HUB_ORIGIN, type SignedIn, signUpAndLogIn, useHubApp } from '../helpers/hub-app.js'
import { type SigningKey, newSigningKey, startJwksServer } from '../helpers/jwks-server.js'
import { buildTestTasksApp } from '../helpers/tasks-app.js'

/**
 * Issue 15, item 12. Attack: present the task manager with a JWT the hub signed for another
 * purpose (its ID token, signed with the same keys), or with one whose times no SSO token of the
 * hub has: issued in the future, or valid for ten years.
 */
describe.each(databasesUnderTest())("the hub's other tokens passed off as SSO tokens, on $name", (database) => {
  const hub = useHubApp(database)
  let user: SignedIn
  const tasksApps: App[] = []

  beforeAll(async () => {
    user = await signUpAndLogIn(hub.app)
  })
  afterAll(async () => {
    for (const app of tasksApps) await app.close()
  })

  /** A task manager that trusts this hub's published keys, whose application id is `appId`. */
  const taskManagerFor = async (appId: string) => {
    const published = createLocalJWKSet((await hub.app.inject({ url: '/.well-known/jwks.json' })).json())
    const verifySsoToken = createSsoTokenVerifier({ keys: published, issuer: HUB_ORIGIN, audience: appId })
    const app = await buildTestTasksApp(hub.handle.db, { config: { auth: 'token', appId, hubIssuer: HUB_ORIGIN }, verifySsoToken })
    tasksApps.push(app)
    return app
  }
  const listTasks = (app: App, token: string) => app.inject({ url: '/tasks', headers: { authorization: `Bearer ${token}` } })

  it("accepts the hub's own SSO token, which names its type", async () => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    const { token } = response.json<{ token: string }>()
    expect(decodeProtectedHeader(token).typ).toBe(SSO_TOKEN_TYPE)
    expect((await listTasks(await taskManagerFor('tasks'), token)).statusCode).toBe(200)
  })

  // The audience alone tells an ID token (aud: the hub's URL) from an SSO token (aud: an application
  // name) only while no application is named like the hub's URL; the type holds regardless.
  it.each([
    ['an application', 'tasks'],
    ["an application named like the hub's URL", HUB_ORIGIN]
  ])("refuses the hub's ID token at %s: 401", async (_case, appId) => {
    const response = await listTasks(await taskManagerFor(appId), user.idToken)
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'SSO token is invalid' })
  })
})

describe('SSO tokens with times the hub never signs', () => {
  const ISSUER = 'http://hub.test'
  let handle: TestDatabase
  let hubKey: SigningKey
  let jwks: Awaited<ReturnType<typeof startJwksServer>>
  let app: App

  beforeAll(async () => {
    handle = await databasesUnderTest()[0]!.open()
    hubKey = await newSigningKey('hub-1')
    jwks = await startJwksServer([hubKey])
    app = await buildTestTasksApp(handle.db, { config: { auth: 'token', hubIssuer: ISSUER, hubJwksUrl: jwks.url } })
  })
  afterAll(async () => {
    await app.close()
    await jwks.close()
    await handle.destroy()
  })

  const nowSeconds = () => Math.floor(Date.now() / 1000)
  /** A token signed with the hub's published key, as the hub's token route would sign it but for `typ`, `iat` and `exp`. */
  const signed = (times: { iat: number; exp: number }, typ: string | null = SSO_TOKEN_TYPE) =>
    new SignJWT({ sub: 'ana', aud: 'tasks', iss: ISSUER, ...times })
      .setProtectedHeader({ alg: hubKey.alg, kid: hubKey.kid, ...(typ === null ? {} : { typ }) })
      .sign(hubKey.privateKey)
  const listTasks = async (token: string) => app.inject({ url: '/tasks', headers: { authorization: `Bearer ${token}` } })

  it.each([
    ['issued two minutes in the future', () => ({ iat: nowSeconds() + 120, exp: nowSeconds() + 120 + SSO_TOKEN_LIFETIME_SECONDS })],
    ['valid for ten years', () => ({ iat: nowSeconds(), exp: nowSeconds() + 10 * 365 * 24 * 3600 })],
    ['valid one second longer than the hub signs', () => ({ iat: nowSeconds(), exp: nowSeconds() + SSO_TOKEN_LIFETIME_SECONDS + 1 })]
  ])('refuses a token %s: 401', async (_case, times) => {
    const response = await listTasks(await signed(times()))
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'SSO token is invalid' })
  })

  it.each([
    ['no type', null],
    ['the generic type JWT', 'JWT'],
    ['another type', 'at+jwt']
  ])('refuses a token of %s, whatever its claims: 401', async (_case, typ) => {
    const response = await listTasks(await signed({ iat: nowSeconds(), exp: nowSeconds() + SSO_TOKEN_LIFETIME_SECONDS }, typ))
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'SSO token is invalid' })
  })

  it('accepts the full lifetime, and an iat within the 30 s clock skew', async () => {
    expect((await listTasks(await signed({ iat: nowSeconds(), exp: nowSeconds() + SSO_TOKEN_LIFETIME_SECONDS }))).statusCode).toBe(200)
    expect((await listTasks(await signed({ iat: nowSeconds() + 20, exp: nowSeconds() + 20 + SSO_TOKEN_LIFETIME_SECONDS }))).statusCode).toBe(200)
  })
})
