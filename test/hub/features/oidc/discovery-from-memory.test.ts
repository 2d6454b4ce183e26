import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createOidcClients } from '../../../../src/hub/features/oidc/clients.js'
import { renderDiscovery } from '../../../../src/hub/features/oidc/discovery.js'
import { loadOidcProvider } from '../../../../src/hub/features/oidc/oidc-provider-module.js'
import { buildHubProvider } from '../../../../src/hub/features/oidc/provider.js'
import { composeClaimsSources } from '../../../../src/hub/kernel/tokens/claims.js'
import { SIGNING_KEYS_FILE, type StoredKey, openKeyring } from '../../../../src/hub/kernel/tokens/keyring.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { HUB_ORIGIN, TASKS_ORIGIN, useHubApp } from '../../../helpers/hub-app.js'

const DISCOVERY = '/.well-known/openid-configuration'

/** What a request to a running provider gets, over a real socket, with the given headers. */
async function servedByProvider(handle: http.RequestListener, headers: Record<string, string>, path = DISCOVERY): Promise<Buffer> {
  const server = http.createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const { port } = server.address() as { port: number }
    // node:http, not fetch: fetch will not send a Host of the test's choosing.
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path, headers }, resolve).once('error', reject)
    })
    expect(response.statusCode).toBe(200)
    const chunks: Buffer[] = []
    for await (const chunk of response) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

describe.each(databasesUnderTest())('discovery from memory (issue 32) on $name', (database) => {
  const hub = useHubApp(database)
  const discovery = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => hub.app.inject({ method, url: DISCOVERY, headers })

  it.each([
    ['an http issuer', 'http://hub.example:3001', false, {}],
    // Behind a proxy Koa takes the protocol from X-Forwarded-Proto, as the renderer's encrypted socket says it.
    ['an https issuer', 'https://id.example.org', true, { 'x-forwarded-proto': 'https' }]
  ])('is, byte for byte, what oidc-provider answers a request to the issuer for %s', async (_case, issuer, behindProxy, forwarded) => {
    const now = () => new Date()
    const provider = buildHubProvider(await loadOidcProvider(), {
      issuer,
      db: hub.handle.db,
      clients: createOidcClients(hub.handle.db),
      keyring: await openKeyring({ signingKey: undefined, dataDir: hub.handle.dataDir, now: now() }),
      cookieKeys: ['a-cookie-key-long-enough-for-the-provider-000'],
      accountOf: async () => undefined,
      addedClaims: composeClaimsSources([]),
      hubSessionOf: () => null,
      behindProxy,
      pageContextOf: () => {
        throw new Error('discovery renders no page')
      },
      now
    })
    const rendered = await renderDiscovery(provider.callback(), issuer)
    const served = await servedByProvider(provider.callback(), { host: new URL(issuer).host, ...forwarded })
    expect(rendered.body.toString()).toBe(served.toString())
    expect(rendered.contentType).toBe('application/json; charset=utf-8')
    expect(JSON.parse(rendered.body.toString())).toMatchObject({ issuer, token_endpoint: `${issuer}/oidc/token`, jwks_uri: `${issuer}/.well-known/jwks.json` })
    // The key set the hub sends from memory at jwks_uri is the one the provider would publish (as
    // application/json, as the hub always has, where the provider says application/jwk-set+json).
    const providerKeys = JSON.parse((await servedByProvider(provider.callback(), { host: new URL(issuer).host, ...forwarded }, '/.well-known/jwks.json')).toString()) as unknown
    expect((await hub.app.inject({ url: '/.well-known/jwks.json' })).json()).toEqual(providerKeys)
  })

  it('names the issuer’s endpoints whatever allowed Host the request came by', async () => {
    // TEST_HUB_CONFIG allows `localhost` besides the public URL's host, as HUB_ALLOWED_HOSTS would a proxy's internal name.
    for (const host of ['localhost:3001', 'localhost']) {
      const document = (await discovery({ host })).json<Record<string, unknown>>()
      expect(document).toMatchObject({
        issuer: HUB_ORIGIN,
        authorization_endpoint: `${HUB_ORIGIN}/oidc/auth`,
        token_endpoint: `${HUB_ORIGIN}/oidc/token`,
        userinfo_endpoint: `${HUB_ORIGIN}/oidc/me`,
        jwks_uri: `${HUB_ORIGIN}/.well-known/jwks.json`
      })
    }
  })

  it('keeps the headers the hub sent with it: JSON, no-store, security headers, request id, CORS for allowed origins only', async () => {
    const response = await discovery({ origin: TASKS_ORIGIN })
    expect(response.statusCode).toBe(200)
    expect(response.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'strict-transport-security': expect.any(String),
      'content-security-policy': expect.stringContaining("default-src 'self'"),
      'x-request-id': expect.any(String),
      'access-control-allow-origin': TASKS_ORIGIN,
      vary: expect.stringContaining('Origin')
    })
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length)
    expect((await discovery({ origin: 'https://evil.example' })).headers).not.toHaveProperty('access-control-allow-origin')
    const head = await discovery({}, 'HEAD')
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-length']).toBe(response.headers['content-length'])
    expect(head.body).toBe('')
    // The Host check still comes first.
    expect((await discovery({ host: 'evil.example' })).statusCode).toBe(421)
  })

  it('follows the key file: a key set without ES256 drops it from the algorithms, and a rotation brings it back', async () => {
    const algorithms = async () => (await discovery()).json<{ id_token_signing_alg_values_supported: string[] }>().id_token_signing_alg_values_supported
    expect(await algorithms()).toEqual(['EdDSA', 'RS256', 'ES256'])
    const file = path.join(hub.handle.dataDir, SIGNING_KEYS_FILE)
    const original = fs.readFileSync(file, 'utf8')
    const withoutEs256 = (JSON.parse(original) as StoredKey[]).filter((stored) => stored.privateJwk.kty !== 'EC')
    // Renamed over the old file, as `keys:rotate` in another process writes it: the hub learns of
    // it from the file system's change notice, so it is seen from the next turn of the event loop.
    fs.writeFileSync(`${file}.new`, JSON.stringify(withoutEs256), { mode: 0o600 })
    fs.renameSync(`${file}.new`, file)
    await expect.poll(algorithms, { timeout: 500 }).toEqual(['EdDSA', 'RS256'])
    fs.writeFileSync(`${file}.new`, original, { mode: 0o600 })
    fs.renameSync(`${file}.new`, file)
    await expect.poll(algorithms, { timeout: 500 }).toEqual(['EdDSA', 'RS256', 'ES256'])
  })
})
