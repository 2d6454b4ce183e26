import { afterEach, describe, expect, it, vi } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

interface Consent {
  id: string
  purpose: string
  granted: boolean
  version: string | null
  recordedAt: string
}

describe.each(databasesUnderTest())('consent over HTTP on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: { signupsPerIp: { limit: 10_000, windowMs: 60_000 } } })
  afterEach(() => {
    vi.useRealTimers()
  })

  const record = (user: SignedIn, payload: unknown) =>
    hub.app.inject({ method: 'POST', url: '/api/privacy/consent', headers: user.headers, payload: payload as object })
  const overview = async (user: SignedIn) =>
    (await hub.app.inject({ method: 'GET', url: '/api/privacy/consent', headers: user.headers })).json<{
      consents: Consent[]
      current: Record<string, Omit<Consent, 'id' | 'purpose'>>
    }>()
  const settings = async (user: SignedIn) =>
    (await hub.app.inject({ method: 'GET', url: '/api/privacy/settings', headers: user.headers })).json<{
      cookies: Record<string, boolean>
      dataSharing: Record<string, boolean>
    }>()

  it('answers 200 (never 201) with the stored record', async () => {
    const user = await signUpAndLogIn(hub.app)
    const response = await record(user, { purpose: 'terms', granted: true, version: '2026-01' })
    expect(response.statusCode).toBe(200)
    const body = response.json<Consent>()
    expect(body).toEqual({ id: expect.any(String), purpose: 'terms', granted: true, version: '2026-01', recordedAt: expect.any(String) })
    expect(new Date(body.recordedAt).toISOString()).toBe(body.recordedAt)
    expect(await overview(user)).toEqual({
      consents: [body],
      current: { terms: { granted: true, version: '2026-01', recordedAt: body.recordedAt } }
    })
  })

  it('stores a missing version as null', async () => {
    const user = await signUpAndLogIn(hub.app)
    expect((await record(user, { purpose: 'terms', granted: false })).json()).toMatchObject({ version: null, granted: false })
  })

  it.each([
    ['a purpose of 64 characters', { purpose: `a${'b'.repeat(63)}`, granted: true }],
    ['every allowed character', { purpose: 'a0:_-z', granted: true }],
    ['a version of 64 characters', { purpose: 'terms', granted: true, version: 'v'.repeat(64) }]
  ])('accepts %s', async (_, payload) => {
    const user = await signUpAndLogIn(hub.app)
    expect((await record(user, payload)).statusCode).toBe(200)
  })

  it.each([
    ['an uppercase purpose', { purpose: 'Analytics', granted: true }, /Purpose must match/],
    ['a purpose with a leading digit', { purpose: '1terms', granted: true }, /Purpose must match/],
    ['a purpose of 65 characters', { purpose: `a${'b'.repeat(64)}`, granted: true }, /Purpose must match/],
    ['a purpose with a space', { purpose: 'terms of use', granted: true }, /Purpose must match/],
    ['an empty purpose', { purpose: '', granted: true }, /Purpose must match/],
    ['a missing purpose', { granted: true }, /Purpose is required/],
    ['a version of 65 characters', { purpose: 'terms', granted: true, version: 'v'.repeat(65) }, /Version must be at most 64 characters/],
    ['a version that is not text', { purpose: 'terms', granted: true, version: 2 }, /Version must be a string/],
    ['granted as text', { purpose: 'terms', granted: 'true' }, /Granted must be a boolean/],
    ['granted as a number', { purpose: 'terms', granted: 1 }, /Granted must be a boolean/],
    ['a missing granted', { purpose: 'terms' }, /Granted is required/],
    ['an unknown field', { purpose: 'terms', granted: true, note: 'x' }, /unknown field: note/],
    ['an unregistered application', { purpose: 'data-sharing:billing', granted: true }, /unknown application: billing/]
  ])('refuses %s with 400, recording nothing', async (_, payload, message) => {
    const user = await signUpAndLogIn(hub.app)
    const response = await record(user, payload)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: expect.stringMatching(message) })
    expect(await overview(user)).toEqual({ consents: [], current: {} })
  })

  it('appends a withdrawal as a new record, newest first, and current follows it', async () => {
    const user = await signUpAndLogIn(hub.app)
    const granted = (await record(user, { purpose: 'marketing', granted: true, version: '1' })).json<Consent>()
    const terms = (await record(user, { purpose: 'terms', granted: true })).json<Consent>()
    const withdrawn = (await record(user, { purpose: 'marketing', granted: false, version: '2' })).json<Consent>()
    expect(withdrawn.id).not.toBe(granted.id)
    const { consents, current } = await overview(user)
    expect(consents).toEqual([withdrawn, terms, granted])
    expect(current).toEqual({
      marketing: { granted: false, version: '2', recordedAt: withdrawn.recordedAt },
      terms: { granted: true, version: null, recordedAt: terms.recordedAt }
    })
  })

  it('keeps insertion order for decisions within one millisecond', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-05-05T10:00:00.000Z') })
    const user = await signUpAndLogIn(hub.app)
    const sent: Consent[] = []
    for (let index = 0; index < 12; index += 1) {
      sent.push((await record(user, { purpose: 'analytics', granted: index % 2 === 0, version: String(index) })).json<Consent>())
    }
    const { consents, current } = await overview(user)
    expect(consents.map(({ version }) => version)).toEqual(sent.map(({ version }) => version).reverse())
    expect(current.analytics).toMatchObject({ granted: false, version: '11' })
    expect((await settings(user)).cookies.analytics).toBe(false)
  })

  it.each([
    ['analytics', (s: Awaited<ReturnType<typeof settings>>) => s.cookies.analytics],
    ['marketing', (s: Awaited<ReturnType<typeof settings>>) => s.cookies.marketing],
    ['functional', (s: Awaited<ReturnType<typeof settings>>) => s.cookies.functional],
    ['data-sharing:tasks', (s: Awaited<ReturnType<typeof settings>>) => s.dataSharing.tasks]
  ])('makes consent to %s the setting it controls, both ways', async (purpose, flag) => {
    const user = await signUpAndLogIn(hub.app)
    await record(user, { purpose, granted: true })
    expect(flag(await settings(user))).toBe(true)
    await record(user, { purpose, granted: false })
    expect(flag(await settings(user))).toBe(false)
  })

  it('leaves the settings alone for a purpose no setting controls', async () => {
    const user = await signUpAndLogIn(hub.app)
    await record(user, { purpose: 'terms', granted: true })
    expect(await settings(user)).toMatchObject({ updatedAt: null, cookies: { analytics: false, marketing: false } })
  })

  it('appends a consent record for each linked flag a PUT changes, and none for an unchanged one', async () => {
    const user = await signUpAndLogIn(hub.app)
    const put = (payload: object) => hub.app.inject({ method: 'PUT', url: '/api/privacy/settings', headers: user.headers, payload })
    expect((await put({ cookies: { analytics: true, marketing: true }, dataSharing: { tasks: true } })).statusCode).toBe(200)
    let { consents, current } = await overview(user)
    expect(consents.map(({ purpose, granted, version }) => ({ purpose, granted, version })).sort((a, b) => a.purpose.localeCompare(b.purpose))).toEqual([
      { purpose: 'analytics', granted: true, version: null },
      { purpose: 'data-sharing:tasks', granted: true, version: null },
      { purpose: 'marketing', granted: true, version: null }
    ])

    // Unchanged flags and unlinked groups append nothing.
    await put({ cookies: { analytics: true, marketing: true }, dataSharing: { tasks: true }, visibility: { profile: 'family' } })
    await put({ retention: { activityLogDays: 400 } })
    expect((await overview(user)).consents).toHaveLength(3)

    await put({ cookies: { marketing: false } })
    ;({ consents, current } = await overview(user))
    expect(consents).toHaveLength(4)
    expect(consents[0]).toMatchObject({ purpose: 'marketing', granted: false })
    expect(current.marketing).toMatchObject({ granted: false })
    expect(current.analytics).toMatchObject({ granted: true })
  })

  it('keeps both a consent and a PUT that race', async () => {
    const user = await signUpAndLogIn(hub.app)
    await Promise.all([
      record(user, { purpose: 'analytics', granted: true }),
      hub.app.inject({ method: 'PUT', url: '/api/privacy/settings', headers: user.headers, payload: { cookies: { marketing: true } } }),
      record(user, { purpose: 'data-sharing:tasks', granted: true }),
      hub.app.inject({ method: 'PUT', url: '/api/privacy/settings', headers: user.headers, payload: { visibility: { profile: 'public' } } })
    ])
    expect(await settings(user)).toMatchObject({
      cookies: { analytics: true, marketing: true },
      dataSharing: { tasks: true },
      visibility: { profile: 'public' }
    })
  })
})
