import { describe, expect, it } from 'vitest'
import { ADMINISTRATORS_ONLY } from '../../../../src/hub/kernel/pipeline/role.js'
import { RECENT_SIGN_IN_CHALLENGE } from '../../../../src/hub/kernel/sessions/recent-sign-in.js'
import type { RegisteredRoute } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { forgetRecentSignIns, signUpAdministrator } from '../../../helpers/administrators.js'
import { type SignedIn, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

/**
 * Every route under /api/admin, whichever feature adds it, read from the built app so that a route
 * added later is covered without being listed here: nobody signed in gets 401, a member 403, and
 * every change an administrator asks without a recent sign-in 401 with RFC 9470's challenge. A
 * new route that forgets `session: 'required'`, `role: 'admin'` or `recentSignIn: true` fails here.
 */

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const ADMIN_PREFIX = '/api/admin/'

type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  enum?: unknown[]
  const?: unknown
  default?: unknown
  examples?: unknown[]
  format?: string
  minimum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
}

/**
 * A value the schema accepts, as plain as can be: so a change's body passes validation and meets
 * the recent sign-in stage (which comes after validation). A schema's own `default` or first
 * `examples` entry wins, so a route whose field has a pattern can say what passes.
 */
function sampleOf(schema: JsonSchema | undefined, ids: { userId: string }): unknown {
  if (!schema) return undefined
  if (schema.const !== undefined) return schema.const
  if (schema.default !== undefined) return schema.default
  if (schema.examples?.length) return schema.examples[0]
  if (schema.enum) return schema.enum[0]
  const choice = schema.anyOf ?? schema.oneOf
  if (choice) return sampleOf(choice.find((one) => one.type !== 'null') ?? choice[0], ids)
  const type = Array.isArray(schema.type) ? schema.type.find((one) => one !== 'null') : schema.type
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, sampleOf(schema.properties?.[name], ids)]))
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, index) => {
        const item = sampleOf(schema.items, ids)
        return typeof item === 'string' && schema.items?.format === undefined ? `${item}${String(index)}` : item
      })
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'boolean':
      return false
    case 'null':
      return null
    case 'string':
      if (schema.format === 'email') return 'matrix@example.com'
      if (schema.format === 'uuid') return ids.userId
      if (schema.format === 'uri' || schema.format === 'url') return 'https://app.example/callback'
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString()
      return 'matrixvalue'.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? 64)
    default:
      return undefined
  }
}

/** The URL of a route with its parameters filled: an account's id is the administrator's own (an existing target), any other an unknown id. */
function urlOf(route: RegisteredRoute, ids: { userId: string }): string {
  return route.url.replace(/:([A-Za-z]+)/g, (_match, name: string) => (/user/i.test(name) ? ids.userId : '00000000-0000-4000-8000-000000000000'))
}

describe.each(databasesUnderTest())('every /api/admin route on $name', (database) => {
  const hub = useHubApp(database)
  const adminRoutes = () => hub.app.registeredRoutes.filter((route) => route.url.startsWith(ADMIN_PREFIX) && route.method !== 'HEAD')
  const send = (route: RegisteredRoute, user: SignedIn | null, ids: { userId: string }, payload?: unknown) =>
    hub.app.inject({
      method: route.method as 'GET',
      url: urlOf(route, ids),
      // Signed out, a browser still holds a CSRF token, unbound: past the CSRF check, the session's is what refuses.
      headers: user?.headers ?? { cookie: 'service-csrf-token=signed-out', 'x-csrf-token': 'signed-out' },
      ...(CHANGES.has(route.method) ? { payload: (payload ?? {}) as object } : {})
    })

  it('finds the console’s routes (so an empty list cannot pass)', () => {
    const found = adminRoutes().map((route) => `${route.method} ${route.url}`)
    expect(found).toEqual(expect.arrayContaining(['GET /api/admin/overview', 'GET /api/admin/activity']))
  })

  it('answers 401 {error} to nobody signed in and 403 {error} to a member, on every route and method', async () => {
    const member = await signUpAndLogIn(hub.app)
    const problems: string[] = []
    for (const route of adminRoutes()) {
      const ids = { userId: member.userId }
      const nobody = await send(route, null, ids)
      if (nobody.statusCode !== 401 || typeof nobody.json<{ error?: unknown }>().error !== 'string') problems.push(`${route.method} ${route.url} signed out: ${String(nobody.statusCode)} ${nobody.body}`)
      const asMember = await send(route, member, ids)
      if (asMember.statusCode !== 403 || asMember.json<{ error?: unknown }>().error !== ADMINISTRATORS_ONLY) problems.push(`${route.method} ${route.url} member: ${String(asMember.statusCode)} ${asMember.body}`)
    }
    expect(problems).toEqual([])
  })

  it('answers 401 with the recent sign-in challenge to an administrator whose last proof is too old, on every change', async () => {
    const document = (await hub.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>> }>()
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await forgetRecentSignIns(hub.handle.db)
    const ids = { userId: admin.userId }
    const changes = adminRoutes().filter((route) => CHANGES.has(route.method))
    const problems: string[] = []
    for (const route of changes) {
      const openApiPath = route.url.replace(/:([A-Za-z]+)/g, '{$1}')
      const operation = document.paths[openApiPath]?.[route.method.toLowerCase()]
      const body = sampleOf(operation?.requestBody?.content?.['application/json']?.schema, ids)
      const response = await send(route, admin, ids, body)
      if (response.statusCode !== 401 || response.headers['www-authenticate'] !== RECENT_SIGN_IN_CHALLENGE || typeof response.json<{ error?: unknown }>().error !== 'string') {
        // A 400 here means the sampled body did not pass the route's schema: give the field a `default` or `examples`.
        problems.push(`${route.method} ${route.url} with ${JSON.stringify(body ?? null)}: ${String(response.statusCode)} ${response.body}`)
      }
    }
    expect(problems).toEqual([])
    // Nothing was changed: the administrator is still one, and still not recently signed in.
    expect((await hub.handle.db.selectFrom('users').select('role').where('id', '=', admin.userId).executeTakeFirst())?.role).toBe('admin')
  })

})
