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
  ['POST', '/api/csp-report'],
  ['GET', '/api/health'],
  ['GET', '/.well-known/jwks.json'],
  ['POST', '/api/export'],
  ['PUT', '/api/privacy/settings'],
  ['POST', '/api/privacy/consent']
] as const

const CONTENT_TYPES = ['application/json', 'application/csp-report', 'application/reports+json', 'text/plain', 'application/x-www-form-urlencoded']

/** JSON-ish values, lopsided towards the shapes the endpoints expect so the property reaches past validation. */
const body = fc.oneof(
  fc.json(),
  fc.string(),
  fc.record(
    {
      email: fc.oneof(fc.emailAddress(), fc.string(), fc.integer()),
      password: fc.oneof(fc.string({ minLength: 8, maxLength: 40 }), fc.constant(null)),
      userId: fc.oneof(fc.uuid(), fc.string()),
      idToken: fc.oneof(fc.string(), fc.base64String()),
      audience: fc.oneof(fc.constantFrom('tasks', 'constructor', '__proto__', ''), fc.string())
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
