import fc from 'fast-check'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../helpers/databases.js'
import { type SignedIn, useHubApp, logIn, signUpAndLogIn } from '../helpers/hub-app.js'

/** Every hub endpoint that takes a request, with the methods it answers. */
const ENDPOINTS = [
  ['POST', '/api/auth/signup'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/set-cookie'],
  ['POST', '/api/auth/generate-token'],
  ['POST', '/api/auth/refresh'],
  ['DELETE', '/api/auth/refresh'],
  ['PUT', '/api/auth/refresh'],
  ['PATCH', '/api/auth/refresh'],
  ['GET', '/api/auth/refresh'],
  ['POST', '/api/csp-report'],
  ['GET', '/api/health'],
  ['GET', '/.well-known/jwks.json'],
  ['GET', '/api/export'],
  ['POST', '/api/export'],
  ['GET', '/api/privacy/settings'],
  ['PUT', '/api/privacy/settings'],
  ['GET', '/api/privacy/consent'],
  ['POST', '/api/privacy/consent']
] as const

/** Any text, control characters, lone surrogates and characters outside the BMP included: what PostgreSQL refuses to store. */
const anyText = fc.string({ unit: 'binary', maxLength: 80 })

const CONTENT_TYPES = ['application/json', 'application/csp-report', 'application/reports+json', 'text/plain', 'application/x-www-form-urlencoded']

/** JSON-ish values, lopsided towards the shapes the endpoints expect so the property reaches past validation. */
const body = fc.oneof(
  fc.json(),
  anyText,
  fc.record(
    {
      email: fc.oneof(fc.emailAddress(), anyText, fc.integer()),
      password: fc.oneof(fc.string({ unit: 'binary', minLength: 8, maxLength: 40 }), fc.constant(null)),
      userId: fc.oneof(fc.uuid(), anyText),
      idToken: fc.oneof(anyText, fc.base64String()),
      audience: fc.oneof(fc.constantFrom('tasks', 'constructor', '__proto__', ''), anyText),
      format: fc.oneof(fc.constantFrom('json', 'csv'), anyText),
      purpose: fc.oneof(fc.constantFrom('analytics', 'marketing', 'terms', 'data-sharing:tasks', 'data-sharing:nope'), anyText),
      granted: fc.oneof(fc.boolean(), anyText),
      version: fc.oneof(anyText, fc.integer()),
      cookies: fc.dictionary(fc.constantFrom('necessary', 'functional', 'analytics', 'marketing', 'other'), fc.oneof(fc.boolean(), anyText)),
      dataSharing: fc.dictionary(fc.oneof(fc.constant('tasks'), anyText), fc.oneof(fc.boolean(), fc.integer())),
      retention: fc.record({ activityLogDays: fc.oneof(fc.integer(), fc.double(), anyText) }, { requiredKeys: [] }),
      visibility: fc.record({ profile: fc.oneof(fc.constantFrom('private', 'family', 'public'), anyText) }, { requiredKeys: [] })
    },
    { requiredKeys: [] }
  ).map((value) => JSON.stringify(value))
)

describe.each(databasesUnderTest())('random bodies on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: { signupsPerIp: { limit: 100_000, windowMs: 60_000 } } })
  let user: SignedIn
  beforeAll(async () => {
    user = await signUpAndLogIn(hub.app)
  })
  // A session of its own per endpoint, since random bodies sent to the sign-out end the one they carry.
  beforeEach(async () => {
    user = await logIn(hub.app, user.email)
  })

  it.each(ENDPOINTS)('never answer %s %s with a 500', async (method, url) => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(...CONTENT_TYPES), fc.boolean(), async (payload, contentType, signedIn) => {
        const response = await hub.app.inject({
          method,
          url,
          headers: { 'content-type': contentType, ...(signedIn ? user.headers : {}) },
          payload
        })
        expect(response.statusCode).toBeLessThan(500)
        expect(response.headers['content-type'] === undefined || response.statusCode === 204 || response.json() !== undefined).toBe(true)
      }),
      { numRuns: 40 }
    )
  })
})
