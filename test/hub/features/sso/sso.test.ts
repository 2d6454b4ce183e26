import fs from 'node:fs'
import path from 'node:path'
import { type JWTPayload, createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { COOKIE_SECRET_FILE } from '../../../../src/hub/kernel/security/cookie-secrets.js'
import { SIGNING_KEYS_FILE, rotateSigningKeys } from '../../../../src/hub/kernel/tokens/keyring.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { HUB_ORIGIN, type SignedIn, buildTestHubApp, useHubApp, signUpAndLogIn, testClock } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('SSO tokens and signing keys on $name', (database) => {
  let user: SignedIn
  const clock = testClock(new Date())
  const hub = useHubApp(database, { now: clock.now, config: { cookieSecrets: undefined } })
  beforeAll(async () => {
    user = await signUpAndLogIn(hub.app)
  })

  const generate = (payload: object) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload })
  const jwks = async () => (await hub.app.inject({ url: '/.well-known/jwks.json' })).json<{ keys: Record<string, string>[] }>()
  const verifyWithJwks = async (token: string) =>
    jwtVerify(token, createLocalJWKSet(await jwks()), { algorithms: ['EdDSA', 'ES256'], currentDate: clock.now() })

  it('issues a five-minute token for a registered application, typed, with every claim', async () => {
    const response = await generate({ audience: 'tasks' })
    expect(response.statusCode, response.body).toBe(200)
    const { token, expiresAt } = response.json<{ token: string; expiresAt: string }>()
    const { payload, protectedHeader } = await verifyWithJwks(token)
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: expect.any(String), typ: 'hearth-sso+jwt' })
    expect(payload).toEqual<JWTPayload>({
      iss: HUB_ORIGIN,
      sub: user.userId,
      aud: 'tasks',
      email: user.email,
      // No verification link used yet; no `name` either: no display name, a private profile.
      email_verified: false,
      // Every account is on the free plan until another is set (docs/billing.md).
      plan: 'free',
      entitlements: [],
      // Every SSO token carries the person's groups, [] when none (docs/oidc.md, "Groups").
      groups: [],
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.any(String)
    })
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300)
    expect(Date.parse(expiresAt)).toBe((payload.exp ?? 0) * 1000)
    const second = await verifyWithJwks((await generate({ audience: 'tasks' })).json<{ token: string }>().token)
    expect(second.payload.jti).not.toBe(payload.jti)
  })

  it.each([
    ['an unregistered application', { audience: 'billing' }, 'Audience must be a registered application: tasks'],
    ['an inherited property name', { audience: 'constructor' }, 'Audience must be a registered application: tasks'],
    ['no audience', {}, 'Audience is required']
  ])('refuses %s: 400', async (_case, payload, error) => {
    const response = await generate(payload)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error })
  })

  it('publishes public keys only, cacheably: one of each algorithm, the Ed25519 one (which signs SSO tokens) first', async () => {
    const response = await hub.app.inject({ url: '/.well-known/jwks.json' })
    expect(response.headers['cache-control']).toBe('public, max-age=300')
    const keys = response.json<{ keys: Record<string, string>[] }>().keys
    for (const key of keys) {
      for (const privatePart of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(privatePart)
    }
    expect(keys).toEqual([
      expect.objectContaining({ kty: 'OKP', crv: 'Ed25519', use: 'sig', alg: 'EdDSA' }),
      expect.objectContaining({ kty: 'RSA', use: 'sig', alg: 'RS256', e: 'AQAB' }),
      expect.objectContaining({ kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' })
    ])
    expect(Buffer.from(keys[1]?.n ?? '', 'base64url')).toHaveLength(256)
    const sso = (await generate({ audience: 'tasks' })).json<{ token: string }>().token
    expect(decodeProtectedHeader(sso)).toMatchObject({ alg: 'EdDSA', kid: keys[0]?.kid })
  })

  it('keeps its generated secrets in DATA_DIR readable by the owner only', () => {
    for (const file of [SIGNING_KEYS_FILE, COOKIE_SECRET_FILE]) {
      expect(fs.statSync(path.join(hub.handle.dataDir, file)).mode & 0o777).toBe(0o600)
    }
  })

  it('keeps verifying tokens signed before a rotation, and publishes the old key until they have expired', async () => {
    const before = (await generate({ audience: 'tasks' })).json<{ token: string }>().token
    const oldKids = (await jwks()).keys.map((key) => key.kid)
    expect(oldKids[0]).toBe(decodeProtectedHeader(before).kid)
    const newKids = await rotateSigningKeys(hub.handle.dataDir, clock.now())
    const [newKid] = newKids
    expect(newKids).toHaveLength(3)
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([...newKids, ...oldKids])
    await expect(verifyWithJwks(before)).resolves.toBeTruthy()
    const after = (await generate({ audience: 'tasks' })).json<{ token: string }>().token
    expect(decodeProtectedHeader(after).kid).toBe(newKid)
    // ID tokens signed with the old key stay usable for their hour, so the old key stays that long.
    expect((await hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: user.userId, idToken: user.idToken } })).statusCode).toBe(200)
    clock.advance(66 * 60 * 1000)
    expect((await jwks()).keys.map((key) => key.kid)).toEqual(newKids)
    expect(fs.statSync(path.join(hub.handle.dataDir, SIGNING_KEYS_FILE)).mode & 0o777).toBe(0o600)
  })

  it('signs with HUB_SIGNING_KEY when given one', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    const jwk = { ...(await exportJWK(privateKey)), kid: 'configured-key' }
    const configured = await buildTestHubApp(hub.handle, { config: { signingKey: JSON.stringify(jwk) } })
    const signedIn = await signUpAndLogIn(configured)
    const response = await configured.inject({ method: 'POST', url: '/api/auth/generate-token', headers: signedIn.headers, payload: { audience: 'tasks' } })
    expect(decodeProtectedHeader(response.json<{ token: string }>().token)).toMatchObject({ alg: 'ES256', kid: 'configured-key' })
    const published = (await configured.inject({ url: '/.well-known/jwks.json' })).json<{ keys: Record<string, string>[] }>()
    expect(published.keys).toEqual([expect.objectContaining({ kid: 'configured-key', kty: 'EC', crv: 'P-256' })])
    expect(published.keys[0]).not.toHaveProperty('d')
    await configured.close()
  })
})
