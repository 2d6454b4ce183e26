import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../../src/shared/http/server.js'
import { databasesUnderTest, type TestDatabase } from '../helpers/databases.js'
import { type SignedIn, buildTestHubApp, logIn, signUpAndLogIn } from '../helpers/hub-app.js'

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
  let handle: TestDatabase
  let app: App
  let user: SignedIn
  beforeAll(async () => {
    handle = await database.open()
    app = await buildTestHubApp(handle, { rateLimits: { signupsPerIp: { limit: 100_000, windowMs: 60_000 } } })
    user = await signUpAndLogIn(app)
  })
  // A session of its own per endpoint, since random bodies sent to the sign-out end the one they carry.
  beforeEach(async () => {
    user = await logIn(app, user.email)
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })

  it.each(ENDPOINTS)('never answer %s %s with a 500', async (method, url) => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(...CONTENT_TYPES), fc.boolean(), async (payload, contentType, signedIn) => {
        const response = await app.inject({
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
