import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createGrantsRepository } from '../../../../src/shared/access-grants/repository.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { createLogger } from '../../../../src/shared/logging.js'
import { parseCsv } from '../../../helpers/csv.js'
import { type SignedIn, buildTestHubApp, logIn, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

const DATASETS = ['account', 'sessions', 'knownDevices', 'passkeys', 'twoStepSignIn', 'billing', 'privacySettings', 'consents', 'groups', 'accessGrants', 'auditTrail']
const CSV_HEADER = ['dataset', 'recordId', 'field', 'value', 'recordedAt']

type ExportDocument = { format: string; userId: string; exportedAt: string; datasets: Record<string, Record<string, unknown>[]> }

describe.each(databasesUnderTest())('export over HTTP on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: { signupsPerIp: { limit: 10_000, windowMs: 60_000 } } })

  const exportAs = (user: SignedIn, payload: object, headers: Record<string, string> = {}) =>
    hub.app.inject({ method: 'POST', url: '/api/export', headers: { ...user.headers, ...headers }, payload })
  const consent = (user: SignedIn, payload: object) =>
    hub.app.inject({ method: 'POST', url: '/api/privacy/consent', headers: user.headers, payload })
  const sessionIdsOf = async (userId: string) =>
    (await hub.handle.db.selectFrom('sessions').select('id').where('userId', '=', userId).execute()).map(({ id }) => id)

  it('names its formats and datasets', async () => {
    const user = await signUpAndLogIn(hub.app)
    const response = await hub.app.inject({ method: 'GET', url: '/api/export', headers: user.headers })
    expect(response.statusCode).toBe(200)
    const body = response.json<{ formats: string[]; datasets: { name: string; description: string }[] }>()
    expect(body.formats).toEqual(['json', 'csv'])
    expect(body.datasets.map(({ name }) => name)).toEqual(DATASETS)
    for (const dataset of body.datasets) expect(dataset.description).not.toBe('')
  })

  it.each([
    ['another format', { format: 'xml' }, /Format must be one of: json, csv/],
    ['no format', {}, /Format is required/],
    ['an unknown field', { format: 'json', zip: true }, /unknown field: zip/]
  ])('refuses %s with 400', async (_, payload, message) => {
    const user = await signUpAndLogIn(hub.app)
    const response = await exportAs(user, payload)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: expect.stringMatching(message) })
  })

  it('downloads JSON holding everything the hub keeps about the user, and no secret', async () => {
    const user = await signUpAndLogIn(hub.app)
    await consent(user, { purpose: 'analytics', granted: true, version: '3' })
    await hub.app.inject({ method: 'PUT', url: '/api/privacy/settings', headers: user.headers, payload: { visibility: { profile: 'family' } } })
    await createGrantsRepository(hub.handle.db).upsert({
      userId: user.userId,
      applicationId: 'tasks',
      roles: ['member'],
      permissions: ['read'],
      grantedBy: 'admin@example.com'
    })
    const [sessionId] = await sessionIdsOf(user.userId)

    const response = await exportAs(user, { format: 'json' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/json')
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="hearth-export-\d{4}-\d{2}-\d{2}\.json"$/)
    const document = response.json<ExportDocument>()
    expect(document).toMatchObject({ format: 'hearth-export/1', userId: user.userId })
    expect(Object.keys(document.datasets)).toEqual(DATASETS)
    const { account, sessions, privacySettings, consents, accessGrants, auditTrail } = document.datasets as Record<string, Record<string, unknown>[]>
    expect(account).toEqual([
      { id: user.userId, recordedAt: expect.any(String), email: user.email, emailVerified: false, displayName: null, locale: null, updatedAt: expect.any(String) }
    ])
    expect(sessions).toHaveLength(1)
    expect(sessions?.[0]).toMatchObject({ userAgent: expect.any(String), expiresAt: expect.any(String) })
    expect(sessions?.[0]?.id).not.toBe(sessionId)
    expect(privacySettings).toEqual([
      expect.objectContaining({ id: 'settings', visibility: { profile: 'family' }, cookies: expect.objectContaining({ analytics: true }) })
    ])
    expect(consents).toEqual([expect.objectContaining({ purpose: 'analytics', granted: true, version: '3' })])
    expect(accessGrants).toEqual([expect.objectContaining({ applicationId: 'tasks', roles: ['member'], permissions: ['read'] })])
    const types = auditTrail?.map(({ type }) => type)
    expect(types).toEqual(expect.arrayContaining(['consent.recorded', 'privacy.updated', 'export.created']))

    const password = await hub.handle.db.selectFrom('users').select('passwordHash').where('id', '=', user.userId).executeTakeFirstOrThrow()
    for (const secret of ['$argon2', password.passwordHash, user.authCookie, sessionId as string, user.idToken]) {
      expect(response.body).not.toContain(secret)
    }
  })

  it('downloads one RFC 4180 table as CSV, neutralising every cell a spreadsheet would run', async () => {
    const user = await signUpAndLogIn(hub.app)
    // A second session whose User-Agent is a formula.
    const login = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': '@SUM(A1)' },
      payload: { email: user.email, password: 'correct horse battery staple' }
    })
    expect(login.statusCode).toBe(200)
    const versions = ['=1+1', '+1', '-1', '\tcmd', '\rcmd', 'plain, "quoted"\r\nline']
    for (const version of versions) expect((await consent(user, { purpose: 'terms', granted: true, version })).statusCode).toBe(200)
    const [sessionId] = await sessionIdsOf(user.userId)
    // As a used verification link leaves it (test/hub/features/account/email-verification.test.ts).
    await hub.handle.db.updateTable('users').set({ emailVerified: 1 }).where('id', '=', user.userId).execute()

    const response = await exportAs(user, { format: 'csv' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="hearth-export-\d{4}-\d{2}-\d{2}\.csv"$/)
    const [header, ...rows] = parseCsv(response.body)
    expect(header).toEqual(CSV_HEADER)
    for (const row of rows) expect(row).toHaveLength(CSV_HEADER.length)
    // Every dataset with records (this user has no access grant, no passkey and no billing record).
    expect(new Set(rows.map(([dataset]) => dataset))).toEqual(new Set(DATASETS.filter((name) => !['accessGrants', 'passkeys', 'billing', 'groups'].includes(name))))
    expect(rows).toContainEqual(['account', user.userId, 'email', user.email, expect.any(String)])
    expect(rows).toContainEqual(['account', user.userId, 'emailVerified', 'true', expect.any(String)])

    const consentVersions = rows.filter(([dataset, , field]) => dataset === 'consents' && field === 'version').map((row) => row[3])
    expect(consentVersions).toEqual(["'=1+1", "'+1", "'-1", "'\tcmd", "'\rcmd", 'plain, "quoted"\r\nline'])
    const userAgents = rows.filter(([dataset, , field]) => dataset === 'sessions' && field === 'userAgent').map((row) => row[3])
    expect(userAgents).toContain("'@SUM(A1)")
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/)

    const password = await hub.handle.db.selectFrom('users').select('passwordHash').where('id', '=', user.userId).executeTakeFirstOrThrow()
    for (const secret of ['$argon2', password.passwordHash, user.authCookie, sessionId as string]) expect(response.body).not.toContain(secret)
  })

  it('allows 10 exports per user per hour, audits each, then answers 429 with Retry-After', async () => {
    const user = await signUpAndLogIn(hub.app)
    const other = await signUpAndLogIn(hub.app)
    for (let index = 0; index < 10; index += 1) {
      expect((await exportAs(user, { format: index % 2 === 0 ? 'json' : 'csv' })).statusCode).toBe(200)
    }
    const refused = await exportAs(user, { format: 'json' })
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({ error: expect.any(String) })
    const retryAfter = Number(refused.headers['retry-after'])
    expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3600).toBe(true)

    const audited = await hub.handle.db
      .selectFrom('auditEvents')
      .select('detail')
      .where('userId', '=', user.userId)
      .where('type', '=', 'export.created')
      .execute()
    const formats = audited.map(({ detail }) => (JSON.parse(detail) as { format: string }).format)
    expect(formats.sort()).toEqual([...Array(5).fill('csv'), ...Array(5).fill('json')])
    // The limit is each user's own.
    expect((await exportAs(other, { format: 'json' })).statusCode).toBe(200)
  })

  it('streams a long history across page boundaries, each record exactly once, in both formats', async () => {
    const user = await signUpAndLogIn(hub.app)
    // Many records share one time, so the pages must break ties by id to neither skip nor repeat.
    const times = ['2029-06-01T00:00:00.000Z', '2029-06-02T00:00:00.000Z']
    const consents = Array.from({ length: 1103 }, (_, index) => ({
      id: randomUUID(),
      userId: user.userId,
      purpose: 'terms',
      granted: index % 2,
      version: String(index),
      recordedAt: times[index % 2] as string
    }))
    const events = Array.from({ length: 620 }, () => ({
      id: randomUUID(),
      userId: user.userId,
      type: 'test.event',
      detail: '{}',
      ip: null,
      userAgent: null,
      createdAt: times[0] as string
    }))
    for (let start = 0; start < consents.length; start += 200) {
      await hub.handle.db.insertInto('consents').values(consents.slice(start, start + 200)).execute()
    }
    for (let start = 0; start < events.length; start += 200) {
      await hub.handle.db.insertInto('auditEvents').values(events.slice(start, start + 200)).execute()
    }

    const document = (await exportAs(user, { format: 'json' })).json<ExportDocument>()
    const exportedConsents = document.datasets.consents?.map(({ id }) => id) ?? []
    expect(exportedConsents).toHaveLength(consents.length)
    expect(new Set(exportedConsents)).toEqual(new Set(consents.map(({ id }) => id)))
    const exportedEvents = (document.datasets.auditTrail ?? []).filter(({ type }) => type === 'test.event').map(({ id }) => id)
    expect(exportedEvents).toHaveLength(events.length)
    expect(new Set(exportedEvents)).toEqual(new Set(events.map(({ id }) => id)))

    const rows = parseCsv((await exportAs(user, { format: 'csv' })).body)
    const csvConsentIds = rows.filter(([dataset, , field]) => dataset === 'consents' && field === 'purpose').map((row) => row[1])
    expect(csvConsentIds).toHaveLength(consents.length)
    expect(new Set(csvConsentIds).size).toBe(consents.length)
  })

  it('ends and logs a CSV download that fails part way instead of leaving it hanging', async () => {
    const log: string[] = []
    const app = await buildTestHubApp(hub.handle, { logger: createLogger('info', { write: (line: string) => log.push(line) }) })
    try {
      const user = await signUpAndLogIn(app)
      await app.inject({ method: 'POST', url: '/api/privacy/consent', headers: user.headers, payload: { purpose: 'terms', granted: true } })
      // A row the audit trail cannot read: the failure comes after the earlier datasets were sent.
      await hub.handle.db
        .insertInto('auditEvents')
        .values({ id: randomUUID(), userId: user.userId, type: 'broken', detail: 'not json', ip: null, userAgent: null, createdAt: '2029-01-01T00:00:00.000Z' })
        .execute()
      const outcome = await Promise.race([
        app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'csv' } }).then(
          () => 'ended',
          () => 'ended'
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('hanging'), 3000))
      ])
      expect(outcome).toBe('ended')
      expect(log.some((line) => line.includes('is not valid JSON'))).toBe(true)
      // The hub still answers.
      expect((await logIn(app, user.email)).userId).toBe(user.userId)
    } finally {
      await app.close()
    }
  })
})
