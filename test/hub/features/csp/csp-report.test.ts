import { Redis } from 'ioredis'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { mostFrequentViolations } from '../../../../src/hub/features/csp/top.js'
import type { App } from '../../../../src/shared/http/server.js'
import { buildTestCspApp } from '../../../helpers/csp-app.js'
import { type TestDatabase, databasesUnderTest } from '../../../helpers/databases.js'

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0'

/** Reports seen within one millisecond share a last-seen time; some tests need them apart. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2))

describe.each(databasesUnderTest())('POST /api/csp-report on $name', (database) => {
  let handle: TestDatabase
  let app: App
  let pageCount = 0
  /** A page of its own per test keeps tests apart on one shared table. */
  let page: string

  beforeAll(async () => {
    handle = await database.open()
    app = await buildTestCspApp(handle.db, { maxReportsPerMinute: 10_000 })
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })
  beforeEach(() => {
    page = `https://hub.example/page-${++pageCount}`
  })

  const level2 = (fields: Record<string, unknown> = {}) => ({
    'csp-report': {
      'document-uri': page,
      'violated-directive': "script-src-elem 'self'",
      'effective-directive': 'script-src-elem',
      'original-policy': "script-src 'self'; report-uri /api/csp-report",
      'blocked-uri': 'https://cdn.example/lib.js',
      'source-file': `${page}/app.js`,
      'line-number': 12,
      ...fields
    }
  })
  const reportingApi = (body: Record<string, unknown> = {}, report: Record<string, unknown> = {}) => ({
    type: 'csp-violation',
    age: 10,
    url: page,
    user_agent: BROWSER,
    body: {
      documentURL: page,
      effectiveDirective: 'img-src',
      blockedURL: 'https://tracker.example/pixel.gif',
      sourceFile: null,
      lineNumber: null,
      disposition: 'enforce',
      statusCode: 200,
      ...body
    },
    ...report
  })
  const post = (payload: unknown, contentType = 'application/csp-report', headers: Record<string, string> = {}, to = app) =>
    to.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': contentType, 'user-agent': BROWSER, ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload)
    })
  const storedFor = (documentUri = page) =>
    handle.db.selectFrom('cspReports').selectAll().where('documentUri', '=', documentUri).orderBy('directive').execute()

  describe('accepted formats', () => {
    it('stores a CSP level 2 report (application/csp-report) and answers 204 with no body', async () => {
      const response = await post(level2())
      expect(response.statusCode).toBe(204)
      expect(response.body).toBe('')
      const rows = await storedFor()
      expect(rows).toEqual([
        {
          fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
          documentUri: page,
          directive: 'script-src-elem',
          blockedUri: 'https://cdn.example/lib.js',
          sourceFile: `${page}/app.js`,
          lineNumber: 12,
          userAgent: BROWSER,
          count: 1,
          firstSeen: expect.stringMatching(ISO_MS_UTC),
          lastSeen: rows[0]?.firstSeen
        }
      ])
    })

    it('stores the csp-violation reports of a Reporting API batch (application/reports+json), ignoring other types', async () => {
      const batch = [
        reportingApi(),
        { type: 'deprecation', age: 1, url: page, body: { id: 'x' } },
        reportingApi({ effectiveDirective: 'style-src-attr', blockedURL: 'inline', sourceFile: `${page}/ui.js`, lineNumber: 3 }, { user_agent: 'Chrome/142' })
      ]
      expect((await post(batch, 'application/reports+json')).statusCode).toBe(204)
      const rows = await storedFor()
      expect(rows.map(({ directive, blockedUri, sourceFile, lineNumber, userAgent }) => ({ directive, blockedUri, sourceFile, lineNumber, userAgent }))).toEqual([
        { directive: 'img-src', blockedUri: 'https://tracker.example/pixel.gif', sourceFile: null, lineNumber: null, userAgent: BROWSER },
        { directive: 'style-src-attr', blockedUri: 'inline', sourceFile: `${page}/ui.js`, lineNumber: 3, userAgent: 'Chrome/142' }
      ])
    })

    it.each([
      ['a CSP level 2 report', () => level2()],
      ['a Reporting API batch', () => [reportingApi()]]
    ])('accepts %s as application/json', async (_case, body) => {
      expect((await post(body(), 'application/json')).statusCode).toBe(204)
      expect(await storedFor()).toHaveLength(1)
    })

    it('accepts a charset parameter on the content type', async () => {
      expect((await post(level2(), 'application/csp-report; charset=utf-8')).statusCode).toBe(204)
    })

    it('keeps only the directive name of a CSP 2 violated-directive when no effective-directive is sent', async () => {
      expect((await post(level2({ 'effective-directive': undefined, 'violated-directive': "Img-Src 'self' https:" }))).statusCode).toBe(204)
      expect((await storedFor())[0]?.directive).toBe('img-src')
    })

    it("takes the request's User-Agent when a Reporting API report names none", async () => {
      const report = reportingApi()
      delete (report as { user_agent?: string }).user_agent
      await post([report], 'application/reports+json', { 'user-agent': 'Safari/26' })
      expect((await storedFor())[0]?.userAgent).toBe('Safari/26')
    })

    it('documents the three content types in the OpenAPI document', async () => {
      const document = (await app.inject({ url: '/openapi.json' })).json()
      const operation = document.paths['/api/csp-report'].post
      expect(Object.keys(operation.requestBody.content)).toEqual(['application/csp-report', 'application/reports+json', 'application/json'])
      expect(Object.keys(operation.responses)).toEqual(['204', '400', '413', '429', '500'])
    })

    it('needs no cookie, CSRF token or origin', async () => {
      const response = await post(level2(), 'application/csp-report', { origin: 'https://elsewhere.example' })
      expect(response.statusCode).toBe(204)
    })
  })

  describe('refused bodies', () => {
    it.each(['application/csp-report', 'application/reports+json', 'application/json'])('answers 400 {error} for malformed JSON as %s', async (type) => {
      const response = await post('{"csp-report": ', type)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: 'Body is not valid JSON' })
    })

    it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/reports'])(
      'answers 400 {error} for content type %s, even when the body is JSON',
      async (type) => {
        const response = await post(level2(), type)
        expect(response.statusCode).toBe(400)
        expect(response.json()).toEqual({
          error: 'Content-Type must be one of: application/csp-report, application/reports+json, application/json'
        })
      }
    )

    it('answers 400 {error} for a body without a content type', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/csp-report', payload: JSON.stringify(level2()) })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: expect.any(String) })
    })

    it.each([
      ['an empty object', {}, 'Csp-report is required'],
      ['a report without document-uri', { 'csp-report': { 'violated-directive': 'img-src' } }, 'Csp-report.document-uri is required'],
      ['a line number that is not an integer', { 'csp-report': { 'document-uri': 'https://hub.example/', 'violated-directive': 'img-src', 'line-number': 'twelve' } }, 'Csp-report.line-number must be an integer'],
      ['an empty array', [], 'Body must NOT have fewer than 1 items'],
      ['a batch without csp-violation reports', [{ type: 'deprecation', body: {} }], 'Body must contain at least 1 valid item(s)'],
      ['a csp-violation without documentURL', [{ type: 'csp-violation', body: { effectiveDirective: 'img-src' } }], '0.body.documentURL is required'],
      ['a number', 42, expect.stringMatching(/^Body must be a CSP report/)],
      ['null', null, expect.stringMatching(/^Body must be a CSP report/)]
    ])('answers 400 for JSON that is not a CSP report: %s', async (_case, body, message) => {
      const response = await post(body, 'application/json')
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: message })
      expect(await storedFor()).toEqual([])
    })

    it('answers 400 for a batch of more than 100 reports', async () => {
      const response = await post(Array.from({ length: 101 }, () => reportingApi()), 'application/reports+json')
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: 'Body must NOT have more than 100 items' })
    })

    it('answers 413 {error} for a body over 64 KiB, and accepts one just under', async () => {
      const padded = (size: number) => {
        const body = JSON.stringify(level2({ 'original-policy': '' }))
        return body.replace('"original-policy":""', `"original-policy":"${'x'.repeat(size - body.length)}"`)
      }
      const over = await post(padded(64 * 1024 + 1))
      expect(over.statusCode).toBe(413)
      expect(over.json()).toEqual({ error: 'Body is too large' })
      expect((await post(padded(64 * 1024))).statusCode).toBe(204)
    })
  })

  describe('what is kept', () => {
    it('counts a repeated violation on one row, updating last seen and the user agent', async () => {
      await post(level2(), 'application/csp-report', { 'user-agent': 'Browser/1' })
      await nextMillisecond()
      await post(level2({ 'document-uri': `${page}?session=1` }), 'application/csp-report', { 'user-agent': 'Browser/2' })
      await nextMillisecond()
      await post([reportingApi({ effectiveDirective: 'script-src-elem', blockedURL: 'https://cdn.example/lib.js', sourceFile: `${page}/app.js`, lineNumber: 12 })], 'application/reports+json')
      const [row, ...others] = await storedFor()
      expect(others).toEqual([])
      expect(row?.count).toBe(3)
      expect(row!.lastSeen > row!.firstSeen).toBe(true)
      expect(row?.userAgent).toBe(BROWSER)
    })

    it('counts every repeat within one batch', async () => {
      await post([reportingApi(), reportingApi(), reportingApi()], 'application/reports+json')
      expect((await storedFor()).map((row) => row.count)).toEqual([3])
    })

    it('keeps violations apart when the line differs', async () => {
      await post(level2({ 'line-number': 1 }))
      await post(level2({ 'line-number': 2 }))
      expect((await storedFor()).map((row) => row.count)).toEqual([1, 1])
    })

    it('strips query strings, fragments and credentials from URIs, and keeps only the scheme of data: URIs', async () => {
      await post(
        level2({
          'document-uri': `${page}?email=alice%40example.com#inbox`,
          'blocked-uri': 'https://alice:secret@cdn.example/lib.js?token=secret',
          'source-file': `${page}/app.js#L12`
        })
      )
      await post(level2({ 'blocked-uri': 'data:text/html;base64,c2VjcmV0', 'line-number': 99 }))
      const rows = await storedFor()
      expect(rows.map(({ blockedUri, sourceFile }) => ({ blockedUri, sourceFile }))).toEqual(
        expect.arrayContaining([
          { blockedUri: 'https://cdn.example/lib.js', sourceFile: `${page}/app.js` },
          { blockedUri: 'data', sourceFile: `${page}/app.js` }
        ])
      )
      expect(JSON.stringify(rows)).not.toMatch(/alice|secret|inbox|c2VjcmV0/)
    })

    it('truncates overlong URIs to 2048 characters', async () => {
      await post(level2({ 'blocked-uri': `https://cdn.example/${'a'.repeat(5000)}` }))
      expect((await storedFor())[0]?.blockedUri).toHaveLength(2048)
    })
  })

  describe('bounded storage', () => {
    it('past the cap, drops the violations least recently seen', async () => {
      const capped = await buildTestCspApp(handle.db, { maxStoredViolations: 3, maxReportsPerMinute: 100 })
      const report = (directive: string) =>
        capped.inject({ method: 'POST', url: '/api/csp-report', headers: { 'content-type': 'application/csp-report' }, payload: level2({ 'effective-directive': directive }) })
      try {
        for (const directive of ['a-src', 'b-src', 'c-src', 'a-src', 'd-src']) {
          expect((await report(directive)).statusCode).toBe(204)
          await nextMillisecond()
        }
        // b-src was first seen after a-src, but a-src was seen again since.
        expect((await storedFor()).map((row) => row.directive)).toEqual(['a-src', 'c-src', 'd-src'])
        expect(await handle.db.selectFrom('cspReports').select('fingerprint').execute()).toHaveLength(3)
      } finally {
        await capped.close()
      }
    })
  })

  describe('most frequent violations', () => {
    it('lists violations by count, most first, up to the limit', async () => {
      await handle.db.deleteFrom('cspReports').execute()
      const times = { 'img-src': 2, 'script-src': 3, 'style-src': 1 }
      for (const [directive, count] of Object.entries(times)) {
        for (let i = 0; i < count; i++) await post(level2({ 'effective-directive': directive }))
      }
      const top = await mostFrequentViolations(handle.db, 2)
      expect(top.map(({ directive, count }) => ({ directive, count }))).toEqual([
        { directive: 'script-src', count: 3 },
        { directive: 'img-src', count: 2 }
      ])
      expect(top[0]).toMatchObject({ documentUri: page, blockedUri: 'https://cdn.example/lib.js', lineNumber: 12, userAgent: BROWSER })
    })
  })

  describe('rate limit', () => {
    let limited: App
    beforeAll(async () => {
      limited = await buildTestCspApp(handle.db, { maxReportsPerMinute: 2 })
      limited.post('/elsewhere', async () => ({ ok: true }))
    })
    afterAll(() => limited.close())

    const from = (ip: string, url = '/api/csp-report', contentType = 'application/csp-report') =>
      limited.inject({ method: 'POST', url, remoteAddress: ip, headers: { 'content-type': contentType }, payload: level2() })

    it('answers 429 {error} with Retry-After once an IP is over its limit, and counts each IP apart', async () => {
      expect((await from('192.0.2.1')).statusCode).toBe(204)
      expect((await from('192.0.2.1')).statusCode).toBe(204)
      const refused = await from('192.0.2.1')
      expect(refused.statusCode).toBe(429)
      expect(refused.json()).toEqual({ error: expect.stringMatching(/^Too many CSP reports, retry in /) })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect((await from('192.0.2.2')).statusCode).toBe(204)
    })

    it('lets reports through when the Redis holding the counters is unreachable', async () => {
      const unreachable = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 })
      const failingOpen = await buildTestCspApp(handle.db, { maxReportsPerMinute: 1, redis: unreachable })
      try {
        for (let i = 0; i < 2; i++) expect((await post(level2(), 'application/csp-report', {}, failingOpen)).statusCode).toBe(204)
      } finally {
        await failingOpen.close()
        unreachable.disconnect()
      }
    })

    it('applies its limit, content types and body limit to the CSP route alone', async () => {
      for (let i = 0; i < 3; i++) expect((await from('192.0.2.3', '/elsewhere', 'application/json')).statusCode).toBe(200)
      const other = await from('192.0.2.4', '/elsewhere', 'application/csp-report')
      expect(other.statusCode).toBe(415)
    })
  })
})
