import http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as openid from 'openid-client'
import { afterAll, beforeAll } from 'vitest'
import { createOidcClients, type NewOidcClient } from '../../src/hub/features/oidc/clients.js'
import type { App } from '../../src/shared/http/server.js'
import type { DatabaseUnderTest, TestDatabase } from './databases.js'
import { GOOD_PASSWORD, type TestHubOptions, buildTestHubApp } from './hub-app.js'
import { freePort } from './server-process.js'

/** The relying party's callback: nothing listens there, the flow stops at the redirect to it. */
export const RP_ORIGIN = 'http://rp.example'
export const RP_CALLBACK = `${RP_ORIGIN}/callback`
export const RP_LOGGED_OUT = `${RP_ORIGIN}/signed-out`

/**
 * A hub on a real port of this machine (the issuer names that port), for the suite around the
 * call. `options` may be a function, read when the suite starts (after earlier beforeAll hooks).
 */
export function useHubOnPort(database: DatabaseUnderTest, options: TestHubOptions | (() => TestHubOptions) = {}) {
  const hub = {} as { app: App; handle: TestDatabase; issuer: string }
  beforeAll(async () => {
    const port = await freePort()
    const chosen = typeof options === 'function' ? options() : options
    hub.issuer = `http://127.0.0.1:${port}`
    hub.handle = await database.open()
    hub.app = await buildTestHubApp(hub.handle, { ...chosen, config: { ...chosen.config, publicUrl: hub.issuer } })
    await hub.app.listen({ port, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await hub.app?.close()
    await hub.handle?.destroy()
  })
  return hub
}

/** Registers a client as `clients:add` would; resolves to its secret (null for a public client). */
export function registerClient(handle: TestDatabase, client: Partial<NewOidcClient> & { id: string }): Promise<string | null> {
  return createOidcClients(handle.db).add(
    { name: client.id, redirectUris: [RP_CALLBACK], postLogoutRedirectUris: [RP_LOGGED_OUT], public: false, firstParty: false, ...client },
    new Date()
  )
}

/**
 * openid-client, configured by discovery as an application would be (plain http: a test hub):
 * HTTP Basic for a confidential client unless `auth` says otherwise, and the client `metadata` the
 * application states (its ID token algorithm, say).
 */
export function relyingParty(
  issuer: string,
  clientId: string,
  secret: string | null,
  options: { auth?: openid.ClientAuth; metadata?: Partial<openid.ClientMetadata> } = {}
): Promise<openid.Configuration> {
  const auth = options.auth ?? (secret === null ? openid.None() : openid.ClientSecretBasic(secret))
  return openid.discovery(new URL(issuer), clientId, options.metadata, auth, { execute: [openid.allowInsecureRequests] })
}

/**
 * A browser of sorts: keeps cookies (by name, every path) and follows redirects on the hub until
 * one leaves it, or a page is shown.
 */
export class CookieBrowser {
  readonly cookies = new Map<string, string>()

  constructor(private readonly origin: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader() } })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const separator = pair.indexOf('=')
      const name = pair.slice(0, separator).trim()
      const value = pair.slice(separator + 1).trim()
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  /** Follows redirects from `url`: where it left the hub, or the hub page it stopped on. */
  async follow(url: string, init: RequestInit = {}): Promise<{ left?: URL; page?: { url: string; status: number; html: string; headers: Headers } }> {
    let next = new URL(url, this.origin)
    let response = await this.request(next.href, init)
    for (let hops = 0; hops < 20; hops++) {
      const location = response.headers.get('location')
      if (response.status < 300 || response.status >= 400 || !location) {
        return { page: { url: next.href, status: response.status, html: await response.text(), headers: response.headers } }
      }
      next = new URL(location, next)
      if (next.origin !== this.origin) return { left: next }
      response = await this.request(next.href)
    }
    throw new Error('Too many redirects')
  }

  /** Signs up and in at the hub's API, as the sign-in page's script does. */
  async signUpAndIn(email: string): Promise<string> {
    const body = JSON.stringify({ email, password: GOOD_PASSWORD })
    const headers = { 'content-type': 'application/json' }
    const signup = await this.request(`${this.origin}/api/auth/signup`, { method: 'POST', body, headers })
    if (signup.status !== 200) throw new Error(`signup: ${signup.status} ${await signup.text()}`)
    const login = await this.request(`${this.origin}/api/auth/login`, { method: 'POST', body, headers })
    if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`)
    return ((await login.json()) as { userId: string }).userId
  }

  /** Posts a page's form (urlencoded), following where it leads. */
  postForm(url: string, fields: Record<string, string>) {
    return this.follow(url, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  }
}

/**
 * An authorization request and its checks, as the relying party builds it: with PKCE unless
 * `pkce: false` (a server-side application that sends none), to RP_CALLBACK unless `redirectUri`.
 */
export async function authorizationRequest(config: openid.Configuration, scope = 'openid email profile', options: { pkce?: boolean; redirectUri?: string } = {}) {
  const pkceCodeVerifier = openid.randomPKCECodeVerifier()
  const expectedState = openid.randomState()
  const expectedNonce = openid.randomNonce()
  const withPkce = options.pkce ?? true
  const url = openid.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri ?? RP_CALLBACK,
    scope,
    ...(withPkce ? { code_challenge: await openid.calculatePKCECodeChallenge(pkceCodeVerifier), code_challenge_method: 'S256' } : {}),
    state: expectedState,
    nonce: expectedNonce
  })
  return { url, checks: { ...(withPkce ? { pkceCodeVerifier } : {}), expectedState, expectedNonce } }
}

/** A small HTTP server that records the back-channel logout tokens posted to it. */
export async function startBackchannelReceiver() {
  const logoutTokens: string[] = []
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const token = new URLSearchParams(body).get('logout_token')
      if (token) logoutTokens.push(token)
      response.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/backchannel-logout`, logoutTokens, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
