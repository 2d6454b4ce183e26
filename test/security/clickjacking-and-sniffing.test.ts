import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../helpers/databases.js'
import { useTasksApp } from '../helpers/tasks-app.js'

/**
 * Framing (clickjacking), MIME sniffing of a JSON answer into HTML, and task URLs leaking in
 * Referer: the task manager's answers carry the hub API's baseline headers against all three.
 */
describe.each(databasesUnderTest())("the task manager's baseline headers on $name", (database) => {
  const tasks = useTasksApp(database)
  const ALICE = { 'x-user-id': 'alice' }

  it.each([
    ['a list', 'GET', '/tasks', ALICE, 200],
    ['a create', 'POST', '/tasks', ALICE, 201],
    ['a missing task', 'GET', '/tasks/00000000-0000-4000-8000-000000000000', ALICE, 404],
    ['a refusal without identity', 'GET', '/tasks', {}, 401],
    ['a validation error', 'POST', '/tasks', ALICE, 400],
    ['an unknown route', 'GET', '/nothing-here', ALICE, 404],
    ['a malformed URL, refused before routing', 'GET', '/tasks/%', ALICE, 400],
    ['a foreign Host', 'GET', '/tasks', { ...ALICE, host: 'rebind.attacker.example' }, 421],
    ['liveness', 'GET', '/health', {}, 200],
    ['the OpenAPI document', 'GET', '/openapi.json', {}, 200]
  ])('are on %s', async (_case, method, url, headers, status) => {
    const payload = status === 201 ? { title: 'Water the plants' } : status === 400 && method === 'POST' ? { title: '' } : undefined
    const response = await tasks.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) })
    expect(response.statusCode).toBe(status)
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['referrer-policy']).toBe('no-referrer')
  })

  it('leaves Swagger UI at /docs the policy @fastify/swagger-ui writes for it, which lets it run', async () => {
    for (const url of ['/docs/', '/docs/static/swagger-initializer.js']) {
      const response = await tasks.app.inject({ url })
      expect(response.statusCode, url).toBe(200)
      const csp = String(response.headers['content-security-policy'])
      expect(csp, url).toMatch(/script-src 'self'/)
      expect(csp, url).toMatch(/frame-ancestors 'self'/)
      expect(response.headers['x-content-type-options'], url).toBe('nosniff')
    }
  })
})
