import { SignJWT, UnsecuredJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TasksAuthMode } from '../../src/shared/config.js'
import type { App } from '../../src/shared/http/server.js'
import { SSO_TOKEN_TYPE } from '../../src/shared/sso/sso-token.js'
import { createSsoTokenVerifier, remoteHubKeys } from '../../src/shared/sso/token-verifier.js'
import { type TestDatabase, databasesUnderTest } from '../helpers/databases.js'
import { type SigningKey, newSigningKey, signToken, startJwksServer } from '../helpers/jwks-server.js'
import { buildTestTasksApp } from '../helpers/tasks-app.js'

const ISSUER = 'http://hub.test'
const [sqlite] = databasesUnderTest()

describe('the task manager trusts the hub SSO tokens', () => {
  let handle: TestDatabase
  let hubKey: SigningKey
  let otherKey: SigningKey
  let jwks: Awaited<ReturnType<typeof startJwksServer>>
  const apps = new Map<TasksAuthMode, App>()

  beforeAll(async () => {
    handle = await sqlite!.open()
    hubKey = await newSigningKey('hub-1')
    otherKey = await newSigningKey('hub-1')
    jwks = await startJwksServer([hubKey])
    for (const auth of ['header', 'token', 'either'] as const) {
      apps.set(auth, await buildTestTasksApp(handle.db, { config: { auth, hubIssuer: ISSUER, hubJwksUrl: jwks.url } }))
    }
  })
  afterAll(async () => {
    for (const app of apps.values()) await app.close()
    await jwks.close()
    await handle.destroy()
  })

  const token = (sub: string, overrides: { aud?: string; iss?: string } = {}, expiresIn: string | number = '5m') =>
    signToken(hubKey, { sub, aud: overrides.aud ?? 'tasks', iss: overrides.iss ?? ISSUER, email: `${sub}@example.test` }, expiresIn, SSO_TOKEN_TYPE)
  const bearer = async (sub: string) => ({ authorization: `Bearer ${await token(sub)}` })
  const listAs = (auth: TasksAuthMode, headers: Record<string, string>) => apps.get(auth)!.inject({ url: '/tasks', headers })

  it.each([
    ['header', 'x-user-id alone', { 'x-user-id': 'ana' }, 200],
    ['header', 'nothing', {}, 401],
    ['token', 'a valid token', 'token', 200],
    ['token', 'x-user-id alone', { 'x-user-id': 'ana' }, 401],
    ['token', 'nothing', {}, 401],
    ['either', 'x-user-id alone', { 'x-user-id': 'ana' }, 200],
    ['either', 'a valid token', 'token', 200],
    ['either', 'nothing', {}, 401]
  ] as const)('TASKS_AUTH=%s with %s answers %i', async (auth, _case, credentials, status) => {
    const headers = credentials === 'token' ? await bearer('ana') : credentials
    expect((await listAs(auth, headers)).statusCode).toBe(status)
  })

  it.each([
    ['token', 'Bearer token is required'],
    ['either', 'Bearer token or x-user-id header is required']
  ] as const)('TASKS_AUTH=%s without credentials says what is required and how to authenticate', async (auth, error) => {
    const response = await listAs(auth, {})
    expect(response.json()).toEqual({ error })
    expect(response.headers['www-authenticate']).toBe('Bearer realm="hearth"')
  })

  it("acts as the token's subject: tasks made with a token are the subject's", async () => {
    const app = apps.get('either')!
    const created = await app.inject({ method: 'POST', url: '/tasks', headers: await bearer('bea'), payload: { title: 'via token' } })
    expect(created.statusCode).toBe(201)
    expect(created.json().assignee).toBe('bea')
    const listed = await app.inject({ url: '/tasks', headers: { 'x-user-id': 'bea' } })
    expect(listed.json().tasks.map((task: { title: string }) => task.title)).toEqual(['via token'])
  })

  it.each(['header', 'token', 'either'] as const)('TASKS_AUTH=%s: a token and an x-user-id that disagree answer 401', async (auth) => {
    const response = await listAs(auth, { ...(await bearer('ana')), 'x-user-id': 'mallory' })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'x-user-id does not match the SSO token' })
  })

  it.each(['header', 'token', 'either'] as const)('TASKS_AUTH=%s: a token and an x-user-id that agree are accepted', async (auth) => {
    expect((await listAs(auth, { ...(await bearer('ana')), 'x-user-id': 'ana' })).statusCode).toBe(200)
  })

  it('TASKS_AUTH=header: a forged token beside x-user-id is refused, not ignored', async () => {
    const response = await listAs('header', { authorization: `Bearer ${await signToken(otherKey, { sub: 'ana', aud: 'tasks', iss: ISSUER }, '5m', SSO_TOKEN_TYPE)}`, 'x-user-id': 'ana' })
    expect(response.statusCode).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer realm="hearth", error="invalid_token"')
  })

  it('TASKS_AUTH=header: a token alone does not stand in for the header, and a gateway\'s own Authorization scheme is left alone', async () => {
    const tokenAlone = await listAs('header', await bearer('ana'))
    expect(tokenAlone.statusCode).toBe(401)
    expect(tokenAlone.json()).toEqual({ error: 'x-user-id header is required' })
    expect(tokenAlone.headers['www-authenticate']).toBeUndefined()
    expect((await listAs('header', { authorization: 'Basic YW5hOnNlY3JldA==', 'x-user-id': 'ana' })).statusCode).toBe(200)
  })

  describe('refuses with 401 {error} and an invalid_token challenge', () => {
    const refusals: [string, () => Promise<string>, string][] = [
      ['an expired token', () => token('ana', {}, Math.floor(Date.now() / 1000) - 31), 'SSO token has expired'],
      ['a token for another application', () => token('ana', { aud: 'billing' }), 'SSO token is invalid'],
      ['a token of another issuer', () => token('ana', { iss: 'http://evil.test' }), 'SSO token is invalid'],
      ['a token signed by an unpublished key with a published kid', () => signToken(otherKey, { sub: 'ana', aud: 'tasks', iss: ISSUER }, '5m', SSO_TOKEN_TYPE), 'SSO token is invalid'],
      ['an unsigned token (alg none)', async () => new UnsecuredJWT({ sub: 'ana', aud: 'tasks', iss: ISSUER }).setIssuedAt().setExpirationTime('5m').encode(), 'SSO token is invalid'],
      [
        'an HMAC token keyed with the public key',
        () =>
          new SignJWT({ sub: 'ana', aud: 'tasks', iss: ISSUER })
            .setProtectedHeader({ alg: 'HS256', kid: 'hub-1', typ: SSO_TOKEN_TYPE })
            .setIssuedAt()
            .setExpirationTime('5m')
            .sign(new TextEncoder().encode(JSON.stringify(hubKey.publicJwk))),
        'SSO token is invalid'
      ],
      ['a token without a subject', () => signToken(hubKey, { aud: 'tasks', iss: ISSUER }, '5m', SSO_TOKEN_TYPE), 'SSO token is invalid'],
      ['garbage', async () => 'not.a.jwt', 'SSO token is invalid']
    ]

    it.each(refusals)('%s', async (_case, makeToken, error) => {
      for (const auth of ['token', 'either'] as const) {
        const response = await listAs(auth, { authorization: `Bearer ${await makeToken()}`, 'x-user-id': 'ana' })
        expect(response.statusCode).toBe(401)
        expect(response.json()).toEqual({ error })
        expect(response.headers['www-authenticate']).toBe('Bearer realm="hearth", error="invalid_token"')
      }
    })
  })

  it('tolerates 30 seconds of clock skew', async () => {
    const justExpired = await token('ana', {}, Math.floor(Date.now() / 1000) - 20)
    expect((await listAs('token', { authorization: `Bearer ${justExpired}` })).statusCode).toBe(200)
  })

  it('refuses an Authorization header of another scheme', async () => {
    const response = await listAs('either', { authorization: 'Basic YW5hOnNlY3JldA==', 'x-user-id': 'ana' })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'Authorization must be a Bearer token' })
  })

  it('caches the JWKS and picks up a rotated key without a restart', async () => {
    const rotating = await startJwksServer([hubKey])
    const verify = createSsoTokenVerifier({ keys: remoteHubKeys(rotating.url, { cooldownMs: 0 }), issuer: ISSUER, audience: 'tasks' })
    const app = await buildTestTasksApp(handle.db, { config: { auth: 'token' }, verifySsoToken: verify })
    try {
      for (let i = 0; i < 5; i++) expect((await app.inject({ url: '/tasks', headers: await bearer('ana') })).statusCode).toBe(200)
      expect(rotating.fetches()).toBe(1)

      const nextKey = await newSigningKey('hub-2')
      rotating.publish([hubKey, nextKey])
      const rotated = await signToken(nextKey, { sub: 'ana', aud: 'tasks', iss: ISSUER }, '5m', SSO_TOKEN_TYPE)
      expect((await app.inject({ url: '/tasks', headers: { authorization: `Bearer ${rotated}` } })).statusCode).toBe(200)
      expect((await app.inject({ url: '/tasks', headers: await bearer('ana') })).statusCode).toBe(200)
      expect(rotating.fetches()).toBe(2)
    } finally {
      await app.close()
      await rotating.close()
    }
  })
})
