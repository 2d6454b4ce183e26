import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, expect } from 'vitest'
import { buildHubApp } from '../../src/hub/app.js'
import type { CounterStore } from '../../src/hub/kernel/rate-limit/counter-store.js'
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../src/hub/kernel/rate-limit/sign-in-throttle.js'
import type { HubConfig } from '../../src/shared/config.js'
import type { App } from '../../src/shared/http/server.js'
import { type Logger, createLogger } from '../../src/shared/logging.js'
import type { DatabaseUnderTest, TestDatabase } from './databases.js'

export const HUB_ORIGIN = 'http://localhost:3001'
export const TASKS_ORIGIN = 'http://localhost:3000'
export const FOREIGN_ORIGIN = 'https://evil.example'
/** A password not on the common list, for accounts the tests create. */
export const GOOD_PASSWORD = 'correct horse battery staple'

export const TEST_HUB_CONFIG: HubConfig = {
  port: 0,
  publicUrl: HUB_ORIGIN,
  identityProvider: { kind: 'builtin' },
  signup: 'open',
  cookieSecrets: ['test-cookie-secret-that-is-long-enough-000'],
  signingKey: undefined,
  sessionMaxAgeSeconds: 30 * 24 * 60 * 60,
  allowedOrigins: [TASKS_ORIGIN],
  apps: { tasks: TASKS_ORIGIN },
  appNames: { tasks: 'Tasks' },
  appEvents: {},
  appExports: {},
  redisUrl: undefined,
  trustedProxies: [],
  // Besides HUB_ORIGIN's host: fastify's inject sends `Host: localhost:80`, which is `localhost`.
  allowedHosts: ['localhost'],
  loopbackHosts: [],
  smtpUrl: undefined,
  mailFrom: 'Hearth <no-reply@localhost>',
  encryptionKey: undefined,
  billing: { graceDays: 7, stripe: undefined }
}

/** A clock the test moves by hand. */
export function testClock(start = new Date('2030-01-01T00:00:00.000Z')) {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms
    }
  }
}

export interface TestHubOptions {
  config?: Partial<HubConfig>
  now?: () => Date
  counterStore?: CounterStore
  rateLimits?: Partial<RateLimits>
  /** Silent unless a test reads the log. */
  logger?: Logger
  auditPruningIntervalMs?: number
  mailSenderIntervalMs?: number
  securityEventSenderIntervalMs?: number
  applicationExportTimeoutMs?: number
}

export function buildTestHubApp(handle: TestDatabase, options: TestHubOptions = {}): Promise<App> {
  return buildHubApp({
    config: { ...TEST_HUB_CONFIG, ...options.config },
    dataDir: handle.dataDir,
    db: handle.db,
    logger: options.logger ?? createLogger('silent'),
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    ...(options.now ? { now: options.now } : {}),
    ...(options.counterStore ? { counterStore: options.counterStore } : {}),
    ...(options.auditPruningIntervalMs ? { auditPruningIntervalMs: options.auditPruningIntervalMs } : {}),
    ...(options.mailSenderIntervalMs ? { mailSenderIntervalMs: options.mailSenderIntervalMs } : {}),
    ...(options.securityEventSenderIntervalMs ? { securityEventSenderIntervalMs: options.securityEventSenderIntervalMs } : {}),
    ...(options.applicationExportTimeoutMs ? { applicationExportTimeoutMs: options.applicationExportTimeoutMs } : {})
  })
}

/**
 * A hub on a freshly migrated database for the tests of one describe block, opened before them and
 * closed after; read `suite.app` and `suite.handle` inside the tests.
 */
export function hubAppPerSuite(database: DatabaseUnderTest, options: TestHubOptions = {}): { app: App; handle: TestDatabase } {
  const suite = {} as { app: App; handle: TestDatabase }
  beforeAll(async () => {
    suite.handle = await database.open()
    suite.app = await buildTestHubApp(suite.handle, options)
  })
  afterAll(async () => {
    await suite.app?.close()
    await suite.handle?.destroy()
  })
  return suite
}

/** The cookies a response sets, by name (the last value wins, as in a browser). */
export function cookiesSetBy(response: LightMyRequestResponse): Record<string, { value: string; maxAge?: number; httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string }> {
  return Object.fromEntries(response.cookies.map((cookie) => [cookie.name, cookie]))
}

/** A `cookie` request header from name → value pairs. */
export function cookieHeader(cookies: Record<string, string | undefined>): string {
  return Object.entries(cookies)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ')
}

/** The `cookie` header a browser sends for a page in `user`'s session, with any other cookies (say `lang`). */
export function pageCookies(user: Pick<SignedIn, 'authCookie'>, others: Record<string, string> = {}): { cookie: string } {
  return { cookie: cookieHeader({ 'service-auth-token': user.authCookie, ...others }) }
}

/** A page's strict CSP: its one script tag carries the response's nonce; no inline handler or style anywhere. */
export function expectStrictPageCsp(response: Pick<LightMyRequestResponse, 'headers' | 'body'>, url: string) {
  const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))?.[1]
  expect(nonce, url).toBeDefined()
  expect(response.body.match(/<script/g), url).toHaveLength(1)
  expect(response.body, url).toContain(`nonce="${nonce}"`)
  expect(response.body, url).not.toMatch(/ on[a-z]+=| style=/)
}

let accountCount = 0
export function uniqueEmail(label = 'user'): string {
  accountCount += 1
  return `${label}-${process.pid}-${accountCount}@example.com`
}

export interface SignedIn {
  userId: string
  email: string
  idToken: string
  authCookie: string
  csrfToken: string
  /** Cookie and CSRF headers for a state-changing request in this session. */
  headers: Record<string, string>
}

/** Signs up a fresh account and logs in: the session a browser would hold. */
export async function signUpAndLogIn(app: App, email = uniqueEmail(), ip = '10.0.0.1'): Promise<SignedIn> {
  const signup = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD }, remoteAddress: ip })
  if (signup.statusCode !== 200) throw new Error(`signup failed: ${signup.statusCode} ${signup.body}`)
  return logIn(app, email, ip)
}

export async function logIn(app: App, email: string, ip = '10.0.0.1'): Promise<SignedIn> {
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: GOOD_PASSWORD }, remoteAddress: ip })
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`)
  return signedInBy(login, email)
}

/** The cookie and CSRF headers of the session a response (a login, set-cookie) started. */
export function sessionHeaders(response: LightMyRequestResponse): Record<string, string> {
  const cookies = cookiesSetBy(response)
  const csrfToken = cookies['service-csrf-token']?.value ?? ''
  return { cookie: cookieHeader({ 'service-auth-token': cookies['service-auth-token']?.value, 'service-csrf-token': csrfToken }), 'x-csrf-token': csrfToken }
}

/** The session a browser holds after a login answered with cookies. */
export function signedInBy(response: LightMyRequestResponse, email: string): SignedIn {
  const cookies = cookiesSetBy(response)
  const { userId, idToken } = response.json<{ userId: string; idToken: string }>()
  return {
    userId,
    email,
    idToken,
    authCookie: cookies['service-auth-token']?.value ?? '',
    csrfToken: cookies['service-csrf-token']?.value ?? '',
    headers: sessionHeaders(response)
  }
}

/**
 * A migrated database and a hub on it for the suite around the call, closed after it. `options`
 * may be a function, read when the suite starts (after earlier beforeAll hooks have run).
 */
export function useHubApp(database: DatabaseUnderTest, options: TestHubOptions | (() => TestHubOptions) = {}) {
  const hub = {} as { handle: TestDatabase; app: App }
  beforeAll(async () => {
    hub.handle = await database.open()
    hub.app = await buildTestHubApp(hub.handle, typeof options === 'function' ? options() : options)
  })
  afterAll(async () => {
    await hub.app.close()
    await hub.handle.destroy()
  })
  return hub
}
