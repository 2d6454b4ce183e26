import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { buildTestCspApp } from '../../../helpers/csp-app.js'
import { type TestDatabase, databasesUnderTest } from '../../../helpers/databases.js'

const jsonValue = fc.jsonValue({ maxDepth: 3 })
/** Strings as hostile as JSON allows: NUL and other controls, lone surrogates, long runs. */
const nastyCharacter = fc.constantFrom('\u0000', '\u001f', '\u007f', '\ud800', '\udc00', 'é', 'a', '?', '#', '/', ':', '@', ' ', '\t')
const nastyString = fc.oneof(
  fc.string({ unit: nastyCharacter, maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 3000 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true })
)
// Mostly strings, so that many reports are valid and their strings reach the database.
const fieldValue = fc.oneof({ weight: 4, arbitrary: nastyString }, jsonValue, fc.integer(), fc.constant(null))
const level2Report = fc.record(
  {
    'document-uri': fieldValue,
    'violated-directive': fieldValue,
    'effective-directive': fieldValue,
    'blocked-uri': fieldValue,
    'source-file': fieldValue,
    'line-number': fc.oneof(fc.integer(), fc.double(), fieldValue)
  },
  { requiredKeys: [] }
)
const reportingApiReport = fc.record(
  {
    type: fc.oneof(fc.constantFrom('csp-violation', 'deprecation'), fieldValue),
    user_agent: fieldValue,
    body: fc.oneof(
      fc.record(
        {
          documentURL: fieldValue,
          effectiveDirective: fieldValue,
          blockedURL: fieldValue,
          sourceFile: fieldValue,
          lineNumber: fc.oneof(fc.integer(), fieldValue)
        },
        { requiredKeys: [] }
      ),
      jsonValue
    )
  },
  { requiredKeys: [] }
)
/** Well-formed reports whose strings are hostile: these reach the database. */
const wellFormedLevel2Report = fc.record({ 'document-uri': nastyString, 'violated-directive': nastyString, 'blocked-uri': nastyString })
const wellFormedViolation = fc.record({
  type: fc.constant('csp-violation'),
  user_agent: nastyString,
  body: fc.record({ documentURL: nastyString, effectiveDirective: nastyString, sourceFile: nastyString })
})
const body = fc.oneof(
  wellFormedLevel2Report.map((report) => JSON.stringify({ 'csp-report': report })),
  fc.array(wellFormedViolation, { minLength: 1, maxLength: 3 }).map((reports) => JSON.stringify(reports)),
  level2Report.map((report) => JSON.stringify({ 'csp-report': report })),
  fc.array(reportingApiReport, { maxLength: 5 }).map((reports) => JSON.stringify(reports)),
  jsonValue.map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.constant('')
)
const contentType = fc.option(
  fc.constantFrom(
    'application/csp-report',
    'application/reports+json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/xml',
    'multipart/form-data',
    'application/x-www-form-urlencoded',
    ''
  ),
  { nil: undefined }
)

describe.each(databasesUnderTest())('CSP report intake under random requests on $name', (database) => {
  let handle: TestDatabase
  let app: App
  beforeAll(async () => {
    handle = await database.open()
    app = await buildTestCspApp(handle.db, { maxReportsPerMinute: 100_000 })
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })

  it('never answers 500, answers 204 or an {error} body, and keeps answering', async () => {
    await fc.assert(
      fc.asyncProperty(body, contentType, async (payload, type) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/csp-report',
          headers: type === undefined ? {} : { 'content-type': type },
          payload
        })
        expect(response.statusCode).toBeLessThan(500)
        if (response.statusCode >= 400) {
          const parsed = response.json()
          expect(Object.keys(parsed)).toEqual(['error'])
          expect(typeof parsed.error).toBe('string')
        } else {
          expect(response.statusCode).toBe(204)
        }
      }),
      { numRuns: 400 }
    )
  })
})
