import { describe, expect, it } from 'vitest'
import { DISCOVERY_PATH } from '../../../../src/hub/features/oidc/paths.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubApp } from '../../../helpers/hub-app.js'
import { RP_CALLBACK, registerClient } from '../../../helpers/oidc-relying-party.js'

/** Where the reverse proxy connects from in these tests. */
const PROXY = '10.70.0.1'
const PUBLIC_URL = 'https://hub.example.org'

/**
 * Behind a TLS proxy (HUB_TRUSTED_PROXIES set) the provider names its endpoints, and marks its
 * cookies, by HUB_PUBLIC_URL: not by X-Forwarded-Proto, which a proxy may not send (nginx does
 * not unless told), nor by an X-Forwarded-Host a client wrote and the proxy passed on.
 */
describe.each(databasesUnderTest())('the OpenID Connect provider behind a reverse proxy, on $name', (database) => {
  const hub = useHubApp(database, { config: { publicUrl: PUBLIC_URL, trustedProxies: [PROXY] } })

  const discoveryWith = async (headers: Record<string, string>) => {
    const response = await hub.app.inject({ method: 'GET', url: DISCOVERY_PATH, headers: { host: 'hub.example.org', ...headers }, remoteAddress: PROXY })
    expect(response.statusCode).toBe(200)
    const { issuer, authorization_endpoint: authorization, token_endpoint: token, end_session_endpoint: endSession } = response.json<Record<string, string>>()
    return { issuer, endpoints: [authorization, token, endSession] }
  }

  it.each([
    ['a proxy that says nothing of the scheme', {}],
    ['a proxy that says https', { 'x-forwarded-proto': 'https' }],
    ['what a client wrote, passed on', { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'evil.example' }]
  ])('names its endpoints at HUB_PUBLIC_URL, given %s', async (_case, headers) => {
    const { issuer, endpoints } = await discoveryWith(headers)
    expect(issuer).toBe(PUBLIC_URL)
    for (const endpoint of endpoints) expect(endpoint).toMatch(new RegExp(`^${PUBLIC_URL}/oidc/`))
  })

  it('sets its cookies Secure when the proxy says nothing of the scheme', async () => {
    await registerClient(hub.handle, { id: 'behind-proxy-app' })
    const query = new URLSearchParams({ client_id: 'behind-proxy-app', response_type: 'code', scope: 'openid', redirect_uri: RP_CALLBACK, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })
    const response = await hub.app.inject({ method: 'GET', url: `/oidc/auth?${query}`, headers: { host: 'hub.example.org' }, remoteAddress: PROXY })
    expect(response.statusCode).toBe(303)
    const cookies = [response.headers['set-cookie'] ?? []].flat()
    expect(cookies.length).toBeGreaterThan(0)
    for (const cookie of cookies) expect(cookie).toMatch(/; secure/i)
  })
})
