import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STRIPE_WEBHOOK_PATH } from '../../src/hub/features/billing/paths.js'
import { BODY_LIMIT_BYTES, type App, type RegisteredRoute } from '../../src/shared/http/server.js'
import { TASKS_SECURITY_EVENTS_PATH } from '../../src/shared/security-events/security-event-token.js'
import { registerTasksClient } from '../../src/tasks/web/hub-client-registration.js'
import { createLogger } from '../../src/shared/logging.js'
import { remoteHubKeys } from '../../src/shared/sso/token-verifier.js'
import { databasesUnderTest } from '../helpers/databases.js'
import { type SignedIn, logIn, signUpAndLogIn } from '../helpers/hub-app.js'
import { useHubOnPort } from '../helpers/oidc-relying-party.js'
import { STRIPE_TEST_WEBHOOK_SECRET, stripeBilling } from '../helpers/stripe-stand-in.js'
import { TEST_TASKS_CONFIG, buildTestTasksApp } from '../helpers/tasks-app.js'

/**
 * Malformed input on every route of both services, the routes read from the built apps so that
 * a route added later is covered without being listed here. Whatever arrives, the answer is never
 * a 5xx, and a 4xx is `{ error: string }` (the security-event receiver adds RFC 8935's `err` and
 * `description`, the provider's endpoints OAuth's `error_description`; a page hidden from the
 * OpenAPI document may answer with an HTML page for the person instead). Requests carry what gets them past authentication (a hub session with its CSRF
 * token, the task manager's `x-user-id`, a valid Stripe signature over the very body sent), so
 * the bodies reach each route's own parsing and validation.
 */

const RFC_8935_MEMBERS = ['err', 'description']
const OAUTH_MEMBERS = ['error_description']

const json = 'application/json'
const urlencoded = 'application/x-www-form-urlencoded'
/** A body to send, labelled with a content type or none. */
interface Body {
  contentType?: string
  payload: string | Buffer
}

/** Malformed bodies every route meets, each by name. */
const MALFORMED_BODIES: Record<string, Body> = {
  'plain text': { contentType: 'text/plain', payload: 'hello' },
  XML: { contentType: 'application/xml', payload: '<a/>' },
  'multipart without a boundary': { contentType: 'multipart/form-data', payload: '--x\r\n\r\n' },
  'a made-up content type': { contentType: 'application/x-hearth-nonsense', payload: '{}' },
  'a content type that is no media type': { contentType: ';;; =', payload: '{}' },
  'JSON in UTF-16': { contentType: 'application/json; charset=utf-16', payload: Buffer.from('{}', 'utf16le') },
  'JSON without a content type': { payload: '{"email":"a@example.com"}' },
  'a form with __proto__': { contentType: urlencoded, payload: '__proto__[admin]=1&constructor[prototype][admin]=1&email=a' },
  'an empty form': { contentType: urlencoded, payload: '' },
  'JSON cut after the brace': { contentType: json, payload: '{' },
  'JSON cut inside a member': { contentType: json, payload: '{"email":"a@example.com","password":' },
  'JSON cut inside an array': { contentType: json, payload: '[1,' },
  'JSON cut inside a string': { contentType: json, payload: '"abc' },
  'JSON with trailing bytes': { contentType: json, payload: '{}}' },
  'JSON with a __proto__ member': { contentType: json, payload: '{"__proto__":{"admin":true},"email":"a@example.com"}' },
  'JSON with a constructor member': { contentType: json, payload: '{"constructor":{"prototype":{"admin":true}}}' },
  'JSON with nested __proto__': { contentType: json, payload: '{"settings":{"__proto__":{"x":1}},"cookies":{"__proto__":true}}' },
  'a JSON array': { contentType: json, payload: '[]' },
  'a JSON array of objects': { contentType: json, payload: '[{"email":"a@example.com"}]' },
  'a JSON string': { contentType: json, payload: '"text"' },
  'JSON null': { contentType: json, payload: 'null' },
  'a JSON number': { contentType: json, payload: '0' },
  'a JSON number too large for a double': { contentType: json, payload: '1e999' },
  'JSON true': { contentType: json, payload: 'true' },
  'deeply nested JSON': { contentType: json, payload: `${'['.repeat(5000)}${']'.repeat(5000)}` },
  'invalid UTF-8 in a JSON string': { contentType: json, payload: Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xc0, 0xaf, 0x22, 0x7d]) },
  'invalid UTF-8 in a form': { contentType: urlencoded, payload: Buffer.from([0x65, 0x3d, 0xff, 0xfe]) },
  'a lone surrogate escaped in JSON': { contentType: json, payload: '{"email":"\\ud800","name":"\\udfff","title":"\\u0000"}' },
  'a body over the limit': { contentType: json, payload: `{"a":"${'x'.repeat(BODY_LIMIT_BYTES)}"}` },
  'a form over the limit': { contentType: urlencoded, payload: `a=${'x'.repeat(BODY_LIMIT_BYTES)}` },
  'a security event over the limit': { contentType: 'application/secevent+jwt', payload: 'e'.repeat(64 * 1024) }
}

/** Path parameters (`:id`, `*`) a route meets besides well-formed ones. */
const ODD_PARAMS = [
  '%',
  '%zz',
  '%00',
  '%ff%fe',
  '%c0%af',
  '%ed%a0%80',
  '..%2F..%2Fetc%2Fpasswd',
  '__proto__',
  'constructor',
  'a'.repeat(2000),
  '%20',
  '00000000-0000-0000-0000-000000000000',
  'not%2Fan%2Fid',
  '%E2%80%AE'
]

/**
 * Text a database or a parser may choke on: printable ASCII, NUL and other controls, lone
 * surrogates, characters beyond the BMP.
 */
const unit = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.constantFrom('\u0000', '\u001f', '\u007f', '\ud800', '\udc00'), weight: 1 },
  { arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((code) => String.fromCodePoint(code)), weight: 1 }
)
const text = fc.string({ unit, maxLength: 60 })
const jsonValue = fc.jsonValue({ maxDepth: 3, stringUnit: unit })
/** Members the routes read, with hostile values, so that some bodies pass the shape check and reach the handler. */
const likelyMembers = fc.record(
  {
    email: fc.oneof(fc.emailAddress(), text),
    password: fc.oneof(text, fc.constant('correct horse battery staple')),
    code: fc.oneof(fc.stringMatching(/^\d{6}$/), text),
    token: text,
    name: text,
    title: fc.oneof(text, jsonValue),
    status: fc.oneof(fc.constantFrom('pending', 'in-progress', 'completed'), text),
    format: fc.oneof(fc.constantFrom('json', 'csv'), text),
    purpose: fc.oneof(fc.constantFrom('analytics', 'marketing', 'terms', 'data-sharing:tasks'), text),
    granted: fc.oneof(fc.boolean(), text),
    plan: fc.oneof(fc.constantFrom('pro', 'free'), text),
    idToken: fc.oneof(text, fc.base64String()),
    audience: fc.oneof(fc.constantFrom('tasks', '__proto__', 'constructor'), text),
    userId: fc.oneof(fc.uuid(), text),
    version: fc.oneof(text, fc.integer()),
    cookies: fc.dictionary(fc.constantFrom('necessary', 'functional', 'analytics', 'marketing', '__proto__'), fc.oneof(fc.boolean(), text)),
    dataSharing: fc.dictionary(fc.oneof(fc.constant('tasks'), text), fc.oneof(fc.boolean(), fc.integer())),
    retention: fc.record({ activityLogDays: fc.oneof(fc.integer(), fc.double(), text) }, { requiredKeys: [] }),
    visibility: fc.record({ profile: fc.oneof(fc.constantFrom('private', 'family', 'public'), text) }, { requiredKeys: [] }),
    // A Stripe event's envelope, so that signed bodies reach the event's own handling.
    id: fc.oneof(fc.constantFrom('evt_1', 'cs_1'), text),
    type: fc.oneof(fc.constantFrom('checkout.session.completed', 'customer.subscription.updated', 'invoice.paid', 'invoice.payment_failed'), text),
    created: fc.oneof(fc.integer(), fc.double(), text),
    data: fc.oneof(fc.record({ object: fc.oneof(fc.dictionary(text, jsonValue, { maxKeys: 4 }), jsonValue) }), jsonValue)
  },
  { requiredKeys: [] }
)
const randomBody: fc.Arbitrary<Body | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({
    contentType: fc.constantFrom(json, `${json}; charset=utf-8`, urlencoded, 'text/plain', 'application/secevent+jwt', 'application/csp-report', 'application/reports+json'),
    payload: fc.oneof(
      likelyMembers.map((value) => JSON.stringify(value)),
      jsonValue.map((value) => JSON.stringify(value)),
      // Truncated JSON: any prefix of a body.
      fc.tuple(likelyMembers.map((value) => JSON.stringify(value)), fc.nat()).map(([whole, cut]) => whole.slice(0, cut % (whole.length + 1))),
      text,
      fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from(bytes))
    )
  })
)
const param = fc.oneof(fc.constantFrom(...ODD_PARAMS, 'x'), fc.uuid(), fc.string({ unit: 'grapheme-ascii', maxLength: 20 }).map(encodeURIComponent))
const randomRequest = fc.record({ param, body: randomBody, signedIn: fc.boolean() })

function fill(url: string, param: string): string {
  const filled = url.replace(/:[A-Za-z]+/g, param).replace('*', param)
  return filled.startsWith('/') ? filled : `/${filled}`
}

/** What is wrong with `response` by the rule (no 5xx; a 4xx is `{ error: string }`), or undefined. */
function problemWith(service: Service, route: RegisteredRoute, response: LightMyRequestResponse, what: string): string | undefined {
  const problem = (why: string) => `${route.method} ${route.url}, ${what}: ${why}: ${response.statusCode} ${response.body.slice(0, 200)}`
  if (response.statusCode >= 500) return problem('a 5xx')
  if (response.statusCode < 400 || route.method === 'HEAD') return undefined
  const type = String(response.headers['content-type'])
  if (service.pages(route) && type.startsWith('text/html') && response.body.startsWith('<!doctype html>')) return undefined
  if (!/^application\/json\b/.test(type)) return problem('not JSON')
  const body: unknown = JSON.parse(response.body)
  if (typeof body !== 'object' || body === null || typeof (body as { error?: unknown }).error !== 'string') return problem('no error string')
  const allowed = ['error', ...service.extraErrorMembers(route)]
  const others = Object.keys(body).filter((member) => !allowed.includes(member))
  return others.length > 0 ? problem(`members besides error (${others.join(', ')})`) : undefined
}

interface Service {
  name: string
  app: App
  routes: RegisteredRoute[]
  /** Whether the route is a page (or the provider's), which may answer a 4xx with an HTML page. */
  pages: (route: RegisteredRoute) => boolean
  /** The URLs that stand for the route: its parameters filled in, the endpoints behind a wildcard. */
  urlsOf: (route: RegisteredRoute) => string[]
  /** Headers that get a request for `route` with `payload` past authentication. */
  credentials(route: RegisteredRoute, url: string, payload: string | Buffer | undefined): Promise<Record<string, string>>
  /** Members an error body of `route` may carry beside `error`. */
  extraErrorMembers(route: RegisteredRoute): string[]
  /** Sees every answer (the hub's, to notice its session ended). */
  answered?(response: LightMyRequestResponse): void
}

async function send(service: Service, route: RegisteredRoute, url: string, body: Body | undefined, signedIn = true) {
  const withBody = body !== undefined && route.method !== 'GET' && route.method !== 'HEAD'
  const credentials = signedIn ? await service.credentials(route, url, withBody ? body.payload : undefined) : {}
  const response = await service.app.inject({
    method: route.method as 'GET',
    url,
    headers: { ...credentials, ...(withBody && body.contentType !== undefined ? { 'content-type': body.contentType } : {}) },
    ...(withBody ? { payload: body.payload } : {})
  })
  service.answered?.(response)
  return response
}

const [sqlite] = databasesUnderTest()
// On a port, so that the task manager's sign-in reaches it as in production.
const hubOnPort = useHubOnPort(sqlite!, {
  // Stripe on, so that its webhook is among the routes; its API is never called for these requests.
  config: { billing: stripeBilling('http://127.0.0.1:9') },
  rateLimits: { signInsPerAccount: { limit: 100_000, windowMs: 60_000 }, failedLoginsPerAccount: { limit: 100_000, windowMs: 60_000 } }
})
const services: Service[] = []

beforeAll(async () => {
  const hub = hubOnPort.app
  const tasksConfig = { ...TEST_TASKS_CONFIG, hubIssuer: hubOnPort.issuer }
  await registerTasksClient(hubOnPort.handle.db, tasksConfig, createLogger('silent'))
  const tasks = await buildTestTasksApp(hubOnPort.handle.db, { config: tasksConfig, hubKeys: remoteHubKeys(new URL(`${hubOnPort.issuer}/.well-known/jwks.json`)) })
  await tasks.ready()
  let session: SignedIn = await signUpAndLogIn(hub)
  let sessionCookieChanged = false
  /** The fuzz's own session, signed in again once a request has ended it (a sign-out, a refresh). */
  const liveSession = async () => {
    if (!sessionCookieChanged) return session
    sessionCookieChanged = false
    const check = await hub.inject({ url: '/api/account', headers: session.headers })
    if (check.statusCode === 401) session = await logIn(hub, session.email)
    return session
  }
  // The provider's endpoints are behind one route (`/oidc/*`): each one its discovery names is fuzzed.
  const discovery = (await hub.inject({ url: '/.well-known/openid-configuration' })).json<Record<string, unknown>>()
  const providerEndpoints = Object.entries(discovery)
    .filter(([name, value]) => name.endsWith('_endpoint') && typeof value === 'string')
    .map(([, value]) => new URL(value as string).pathname)
  services.push(
    {
      name: 'hub',
      app: hub,
      routes: [...hub.registeredRoutes],
      pages: hiddenFromOpenApi(hub),
      urlsOf: (route) => (route.url === '/oidc/*' ? [fill(route.url, 'x'), ...providerEndpoints] : [fill(route.url, 'x')]),
      async credentials(_route, url, payload) {
        const headers = { ...(await liveSession()).headers }
        if (url === STRIPE_WEBHOOK_PATH && payload !== undefined) {
          headers['stripe-signature'] = Stripe.webhooks.generateTestHeaderString({
            payload: payload.toString('latin1'),
            secret: STRIPE_TEST_WEBHOOK_SECRET,
            timestamp: Math.floor(Date.now() / 1000)
          })
        }
        return headers
      },
      // The provider's endpoints answer as OAuth says (RFC 6749 section 5.2).
      extraErrorMembers: (route) => (route.url === '/oidc/*' ? OAUTH_MEMBERS : []),
      answered(response) {
        if (response.cookies.some((cookie) => cookie.name === 'service-auth-token')) sessionCookieChanged = true
      }
    },
    {
      name: 'task manager',
      app: tasks,
      routes: [...tasks.registeredRoutes],
      pages: hiddenFromOpenApi(tasks),
      urlsOf: (route) => [fill(route.url, 'x')],
      credentials: async () => ({ 'x-user-id': 'fuzzer' }),
      extraErrorMembers: (route) => (route.url === TASKS_SECURITY_EVENTS_PATH ? RFC_8935_MEMBERS : [])
    }
  )
})

afterAll(async () => {
  await services.find((service) => service.name === 'task manager')?.app.close()
})

/**
 * The routes the OpenAPI document leaves out: the pages, and the provider's endpoints (which
 * discovery documents). Only these may answer a 4xx as a page for the person who sees it.
 */
function hiddenFromOpenApi(app: App): (route: RegisteredRoute) => boolean {
  const documented = new Set<string>()
  const paths = (app.swagger() as { paths?: Record<string, Record<string, unknown>> }).paths ?? {}
  for (const [path, operations] of Object.entries(paths)) {
    for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`)
  }
  return (route) => !documented.has(`${route.method} ${route.url.replace(/:([A-Za-z]+)/g, '{$1}')}`)
}

describe.each(['hub', 'task manager'])('malformed input on every route of the %s', (name) => {
  const service = () => services.find((candidate) => candidate.name === name)!

  it('lists the routes it fuzzes from the app itself', () => {
    const urls = service().routes.map((route) => `${route.method} ${route.url}`)
    expect(urls).toContain(name === 'hub' ? `POST ${STRIPE_WEBHOOK_PATH}` : `POST ${TASKS_SECURITY_EVENTS_PATH}`)
    expect(urls.length).toBeGreaterThan(name === 'hub' ? 80 : 25)
  })

  it.each(Object.keys(MALFORMED_BODIES))('answers %s with a 4xx {error} on every route', async (bodyName) => {
    const problems: string[] = []
    for (const route of service().routes) {
      for (const url of service().urlsOf(route)) {
        const response = await send(service(), route, url, MALFORMED_BODIES[bodyName])
        problems.push(problemWith(service(), route, response, `${url}, ${bodyName}`) ?? '')
      }
    }
    expect(problems.filter(Boolean)).toEqual([])
  })

  it('answers odd path parameters with a 4xx {error} on every route that takes one', async () => {
    const problems: string[] = []
    for (const route of service().routes.filter((candidate) => /[:*]/.test(candidate.url))) {
      for (const param of ODD_PARAMS) {
        const response = await send(service(), route, fill(route.url, param), { contentType: json, payload: '{}' })
        problems.push(problemWith(service(), route, response, `the parameter ${param.slice(0, 40)}`) ?? '')
      }
    }
    expect(problems.filter(Boolean)).toEqual([])
  })

  it('answers random bodies, content types and parameters with a 4xx {error} on every route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...service().routes), randomRequest, async (route, { param, body, signedIn }) => {
        const response = await send(service(), route, fill(route.url, param), body, signedIn)
        expect(problemWith(service(), route, response, `the body ${String(JSON.stringify(body)).slice(0, 200)}`)).toBeUndefined()
      }),
      { numRuns: 300 }
    )
  })
})
