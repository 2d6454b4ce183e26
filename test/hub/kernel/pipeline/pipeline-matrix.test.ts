import { beforeAll, describe, expect, it } from 'vitest'
import { hmac } from '../../../../src/hub/kernel/security/hmac.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import {
  FOREIGN_ORIGIN,
  GOOD_PASSWORD,
  type SignedIn,
  TASKS_ORIGIN,
  useHubApp,
  cookieHeader,
  cookiesSetBy,
  signUpAndLogIn,
  uniqueEmail,
  logIn
} from '../../../helpers/hub-app.js'

/**
 * Every endpoint of the spec's table (and sign-up) × auth cookie × CSRF header × Origin, each
 * asserting the status the spec and issue 3 give. The expected status is worked out here from
 * the rules (origin first, then CSRF, then the cookie), independently of the code under test.
 */
type CookieCase = 'none' | 'forged' | 'revoked' | 'valid'
type CsrfCase = 'none' | 'wrong' | 'right'
type OriginCase = 'none' | 'allowed' | 'disallowed'

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  cookieRequired: boolean
  csrfRequired: boolean
  /** CSP reports are excepted from the origin check. */
  originChecked: boolean
  success: number
  /** The sign-out ends the session it is given, so it gets a session of its own. */
  endsSession?: boolean
  body?: (fixture: Fixture) => object | Promise<object>
}

interface Fixture {
  user: SignedIn
  /** An ID token not used yet: set-cookie accepts each once. */
  unusedIdToken: () => Promise<string>
}

const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/api/auth/login',
    cookieRequired: false,
    csrfRequired: false,
    originChecked: true,
    success: 200,
    body: ({ user }) => ({ email: user.email, password: GOOD_PASSWORD })
  },
  {
    method: 'POST',
    path: '/api/auth/set-cookie',
    cookieRequired: false,
    csrfRequired: false,
    originChecked: true,
    success: 200,
    body: async ({ user, unusedIdToken }) => ({ userId: user.userId, idToken: await unusedIdToken() })
  },
  {
    method: 'POST',
    path: '/api/auth/signup',
    cookieRequired: false,
    csrfRequired: false,
    originChecked: true,
    success: 200,
    body: () => ({ email: uniqueEmail('matrix'), password: GOOD_PASSWORD })
  },
  {
    method: 'POST',
    path: '/api/auth/generate-token',
    cookieRequired: true,
    csrfRequired: true,
    originChecked: true,
    success: 200,
    body: () => ({ audience: 'tasks' })
  },
  { method: 'POST', path: '/api/auth/refresh', cookieRequired: true, csrfRequired: true, originChecked: true, success: 200 },
  {
    method: 'DELETE',
    path: '/api/auth/refresh',
    cookieRequired: true,
    csrfRequired: true,
    originChecked: true,
    success: 204,
    endsSession: true
  },
  // Two exports succeed per database (CSRF right, origin none or allowed): within the 10 per hour.
  { method: 'GET', path: '/api/export', cookieRequired: true, csrfRequired: false, originChecked: true, success: 200 },
  {
    method: 'POST',
    path: '/api/export',
    cookieRequired: true,
    csrfRequired: true,
    originChecked: true,
    success: 200,
    body: () => ({ format: 'json' })
  },
  { method: 'GET', path: '/api/privacy/settings', cookieRequired: true, csrfRequired: false, originChecked: true, success: 200 },
  {
    method: 'PUT',
    path: '/api/privacy/settings',
    cookieRequired: true,
    csrfRequired: true,
    originChecked: true,
    success: 200,
    body: () => ({ visibility: { profile: 'family' } })
  },
  { method: 'GET', path: '/api/privacy/consent', cookieRequired: true, csrfRequired: false, originChecked: true, success: 200 },
  {
    method: 'POST',
    path: '/api/privacy/consent',
    cookieRequired: true,
    csrfRequired: true,
    originChecked: true,
    success: 200,
    body: () => ({ purpose: 'terms', granted: true })
  },
  {
    method: 'POST',
    path: '/api/csp-report',
    cookieRequired: false,
    csrfRequired: false,
    originChecked: false,
    success: 204,
    body: () => ({ 'csp-report': { 'document-uri': 'http://localhost:3001/', 'violated-directive': 'script-src' } })
  }
]

const COOKIES: CookieCase[] = ['none', 'forged', 'revoked', 'valid']
const CSRF: CsrfCase[] = ['none', 'wrong', 'right']
const ORIGINS: OriginCase[] = ['none', 'allowed', 'disallowed']

function expectedStatus(endpoint: Endpoint, cookie: CookieCase, csrf: CsrfCase, origin: OriginCase): number {
  if (endpoint.originChecked && origin === 'disallowed') return 403
  if (endpoint.csrfRequired && csrf !== 'right') return 403
  if (endpoint.cookieRequired && cookie !== 'valid') return 401
  return endpoint.success
}

describe.each(databasesUnderTest())('request pipeline matrix on $name', (database) => {
  const hub = useHubApp(database, {
    rateLimits: { signupsPerIp: { limit: 10_000, windowMs: 60_000 }, signInsPerAccount: { limit: 10_000, windowMs: 60_000 } }
  })
  let fixture: Fixture
  let revoked: SignedIn
  let anonymousCsrfToken: string

  beforeAll(async () => {
    const user = await signUpAndLogIn(hub.app)
    fixture = { user, unusedIdToken: async () => (await logIn(hub.app, user.email)).idToken }
    revoked = await logIn(hub.app, fixture.user.email)
    const signOut = await hub.app.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: revoked.headers })
    expect(signOut.statusCode).toBe(204)
    const health = await hub.app.inject({ url: '/api/health' })
    anonymousCsrfToken = cookiesSetBy(health)['service-csrf-token']?.value ?? ''
  })

  /** The auth cookie value and the CSRF token a browser in this state would hold. */
  async function browserState(endpoint: Endpoint, cookie: CookieCase): Promise<{ authCookie?: string; csrfToken: string }> {
    switch (cookie) {
      case 'none':
        return { csrfToken: anonymousCsrfToken }
      case 'forged': {
        // The valid session's claims, re-signed with a key the hub does not hold.
        const payload = fixture.user.authCookie.split('.').slice(0, 4).join('.')
        return { authCookie: `${payload}.${hmac('forger-key-forger-key-forger-key-00', payload)}`, csrfToken: anonymousCsrfToken }
      }
      case 'revoked':
        return { authCookie: revoked.authCookie, csrfToken: revoked.csrfToken }
      case 'valid': {
        const session = endpoint.endsSession ? await logIn(hub.app, fixture.user.email) : fixture.user
        return { authCookie: session.authCookie, csrfToken: session.csrfToken }
      }
    }
  }

  for (const endpoint of ENDPOINTS) {
    describe(`${endpoint.method} ${endpoint.path}`, () => {
      for (const cookie of COOKIES) {
        for (const csrf of CSRF) {
          for (const origin of ORIGINS) {
            const expected = expectedStatus(endpoint, cookie, csrf, origin)
            const name = `cookie ${cookie}, CSRF ${csrf}, origin ${origin} → ${expected}`
            it(name, async () => {
              const state = await browserState(endpoint, cookie)
              const headers: Record<string, string> = {
                cookie: cookieHeader({ 'service-auth-token': state.authCookie, 'service-csrf-token': state.csrfToken })
              }
              if (csrf === 'right') headers['x-csrf-token'] = state.csrfToken
              if (csrf === 'wrong') headers['x-csrf-token'] = `${state.csrfToken.slice(0, -1)}${state.csrfToken.endsWith('A') ? 'B' : 'A'}`
              if (origin === 'allowed') headers.origin = TASKS_ORIGIN
              if (origin === 'disallowed') headers.origin = FOREIGN_ORIGIN
              const response = await hub.app.inject({
                method: endpoint.method,
                url: endpoint.path,
                headers,
                ...(endpoint.body ? { payload: await endpoint.body(fixture) } : {})
              })
              expect(response.statusCode, response.body).toBe(expected)
              if (expected >= 400) {
                expect(response.json()).toEqual({ error: expect.any(String) })
                expect(cookiesSetBy(response)['service-auth-token']).toBeUndefined()
              }
            })
          }
        }
      }
    })
  }
})
