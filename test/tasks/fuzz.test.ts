import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../helpers/databases.js'
import { useTasksApp } from '../helpers/tasks-app.js'

/**
 * fast-check's default strings are printable ASCII, which can never find text a database refuses
 * (U+0000 on PostgreSQL) or a broken surrogate. Each unit is one of: printable ASCII, a C0 control
 * or DEL, a lone surrogate, or a code point beyond the BMP.
 */
const unit = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.constant('\u0000'), weight: 1 },
  { arbitrary: fc.oneof(fc.integer({ min: 1, max: 0x1f }), fc.constant(0x7f)).map((code) => String.fromCharCode(code)), weight: 1 },
  { arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)), weight: 1 },
  { arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((code) => String.fromCodePoint(code)), weight: 1 }
)
const text = (maxLength: number) => fc.string({ unit, maxLength })

/** Bytes as a URL carries them: any byte, so also invalid UTF-8 and encoded surrogates. */
const percentBytes = (maxLength: number) =>
  fc
    .array(fc.oneof(fc.constantFrom(0x00, 0x1f, 0x7f, 0xc0, 0xed, 0xff), fc.integer({ min: 0, max: 255 })), { maxLength }).map((bytes) => bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''))
/** Text as a URL carries it: UTF-8, percent-encoded (an unpaired surrogate becomes U+FFFD, as in any client). */
const inUrl = (maxLength: number) => text(maxLength).map((value) => [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''))
const urlText = (maxLength: number) => fc.oneof(inUrl(maxLength), percentBytes(maxLength))

const jsonValue = fc.jsonValue({ maxDepth: 3, stringUnit: unit })
const taskLikeBody = fc.record(
  {
    title: fc.oneof(text(600), jsonValue),
    description: fc.oneof(text(100), jsonValue),
    status: fc.oneof(fc.constantFrom('pending', 'in-progress', 'completed', '', 'done'), jsonValue),
    id: jsonValue
  },
  { requiredKeys: [] }
)
const body = fc.oneof(
  taskLikeBody.map((value) => JSON.stringify(value)),
  jsonValue.map((value) => JSON.stringify(value)),
  text(200),
  fc.constant('')
)
const pathId = fc.oneof(fc.uuid(), urlText(40), fc.constant('%'), fc.constant('..%2F'))
/** A cursor that decodes, with any text where the position's id belongs. */
const craftedCursor = fc
  .tuple(fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), fc.oneof(fc.uuid(), text(40)))
  .map((position) => Buffer.from(JSON.stringify(position)).toString('base64url'))
const queryValue = {
  limit: fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), urlText(10)),
  cursor: fc.oneof(craftedCursor, fc.base64String({ maxLength: 60 }), urlText(60)),
  status: fc.oneof(fc.constantFrom('pending', 'completed'), urlText(12))
}
const queryString = fc
  .record(queryValue, { requiredKeys: [] })
  // Values are already URL-encoded text (percentBytes may hold bytes no JavaScript string can).
  .map((query) => Object.entries(query).map(([name, value]) => `${name}=${value}`).join('&'))

/** What HTTP allows in a header value: tab, visible ASCII and space, and obs-text bytes. */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 6 },
      { arbitrary: fc.constant('\t'), weight: 1 },
      { arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)), weight: 2 }
    ),
    maxLength
  })
const headers = fc.record(
  {
    'x-user-id': fc.oneof({ arbitrary: fc.constantFrom('fuzzer', 'other'), weight: 3 }, { arbitrary: headerText(300), weight: 1 }),
    authorization: fc.oneof(headerText(80), headerText(80).map((token) => `Bearer ${token}`)),
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', 'multipart/form-data')
  },
  { requiredKeys: [] }
)
const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
  target: fc.oneof(
    { arbitrary: fc.constant('/tasks'), weight: 3 },
    { arbitrary: pathId.map((id) => `/tasks/${id}`), weight: 3 },
    { arbitrary: fc.constant('/health'), weight: 1 },
    { arbitrary: urlText(30).map((path) => `/${path}`), weight: 1 }
  ),
  query: queryString,
  headers,
  body
})

describe.each(databasesUnderTest())('task manager under random requests on $name', (database) => {
  const suite = useTasksApp(database)

  it('never answers 500, always answers errors as JSON {error}, and keeps answering', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ method, target, query, headers, body }) => {
        const withBody = method !== 'GET' && method !== 'DELETE'
        const response = await suite.app.inject({
          method,
          url: query ? `${target}?${query}` : target,
          headers,
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
