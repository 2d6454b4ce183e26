import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../helpers/databases.js'
import { useTasksApp } from '../helpers/tasks-app.js'

const jsonValue = fc.jsonValue({ maxDepth: 3 })
const taskLikeBody = fc.record(
  {
    title: fc.oneof(fc.string({ maxLength: 600 }), jsonValue),
    description: fc.oneof(fc.string(), jsonValue),
    status: fc.oneof(fc.constantFrom('pending', 'in-progress', 'completed', '', 'done'), jsonValue),
    id: jsonValue
  },
  { requiredKeys: [] }
)
const body = fc.oneof(
  taskLikeBody.map((value) => JSON.stringify(value)),
  jsonValue.map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.constant('')
)
const pathId = fc.oneof(fc.uuid(), fc.string({ maxLength: 80 }).map(encodeURIComponent), fc.constant('%'), fc.constant('..%2F'))
const queryString = fc
  .record(
    {
      limit: fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), fc.string({ maxLength: 10 })),
      cursor: fc.oneof(fc.base64String({ maxLength: 60 }), fc.string({ maxLength: 60 })),
      status: fc.oneof(fc.constantFrom('pending', 'completed'), fc.string({ maxLength: 12 }))
    },
    { requiredKeys: [] }
  )
  .map((query) => new URLSearchParams(query).toString())
const headers = fc.record(
  {
    'x-user-id': fc.oneof(fc.constantFrom('fuzzer', 'other'), fc.string({ minLength: 0, maxLength: 300 })),
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', 'multipart/form-data')
  },
  { requiredKeys: [] }
)
const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
  target: fc.oneof(
    fc.constant('/tasks'),
    pathId.map((id) => `/tasks/${id}`),
    fc.constant('/health'),
    fc.string({ maxLength: 30 }).map((path) => `/${encodeURIComponent(path)}`)
  ),
  query: queryString,
  headers,
  body
})

/** Header values must be printable for an HTTP request to be sent at all. */
const printable = (value: string) => value.replace(/[^\x20-\x7e]/g, '')

describe.each(databasesUnderTest())('task manager under random requests on $name', (database) => {
  const suite = useTasksApp(database)

  it('never answers 500, always answers errors as JSON {error}, and keeps answering', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ method, target, query, headers, body }) => {
        const withBody = method !== 'GET' && method !== 'DELETE'
        const response = await suite.app.inject({
          method,
          url: query ? `${target}?${query}` : target,
          headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, printable(value)])),
          ...(withBody ? { payload: body } : {})
        })
        expect(response.statusCode).toBeLessThan(500)
        if (response.statusCode >= 400) {
          const parsed = response.json()
          expect(Object.keys(parsed)).toEqual(['error'])
          expect(typeof parsed.error).toBe('string')
        }
      }),
      { numRuns: 400 }
    )
    const health = await suite.app.inject({ url: '/health' })
    expect(health.json()).toEqual({ status: 'ok' })
  })
})
