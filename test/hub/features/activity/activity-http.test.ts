import { describe, expect, it } from 'vitest'
import { createAuditTrail } from '../../../../src/hub/kernel/audit/repository.js'
import type { AuditEventInput, AuditEventType } from '../../../../src/hub/kernel/audit/events.js'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { GOOD_PASSWORD, type SignedIn, cookieHeader, cookiesSetBy, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'

const ACTIVITY = '/api/account/activity'
const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const DAY_MS = 86_400_000

interface ActivityEvent {
  type: string
  at: string
  ip: string | null
  userAgent: string | null
  detail: Record<string, unknown>
}
interface ActivityPage {
  events: ActivityEvent[]
  hasMore: boolean
  nextCursor: string | null
}

const activity = (app: App, cookie: string, query = '') => app.inject({ method: 'GET', url: `${ACTIVITY}${query}`, headers: { cookie } })

async function activityPage(app: App, user: SignedIn, query = ''): Promise<ActivityPage> {
  const response = await activity(app, user.headers.cookie ?? '', query)
  expect(response.statusCode, response.body).toBe(200)
  return response.json<ActivityPage>()
}

/** Every page in turn, by `nextCursor`, until `hasMore` is false. */
async function everyPage(app: App, user: SignedIn, limit: number): Promise<ActivityPage[]> {
  const pages = [await activityPage(app, user, `?limit=${String(limit)}`)]
  for (let page = pages[0]; page?.hasMore; page = pages.at(-1)) {
    pages.push(await activityPage(app, user, `?limit=${String(limit)}&cursor=${encodeURIComponent(page.nextCursor ?? '')}`))
  }
  return pages
}

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe.each(databasesUnderTest())('the activity API on $name', (database) => {
  const hub = useHubApp(database)
  const record = (event: AuditEventInput, at: Date) => createAuditTrail(hub.handle.db).record(event, at)

  it('answers 401 without a session', async () => {
    const response = await activity(hub.app, '')
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: expect.any(String) })
  })

  it("lists the person's own events only, newest first, with where they came from", async () => {
    const email = uniqueEmail('activity')
    const signup = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { 'user-agent': CHROME_ON_LINUX }, payload: { email, password: GOOD_PASSWORD }, remoteAddress: '10.1.0.1' })
    expect(signup.statusCode).toBe(200)
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'user-agent': CHROME_ON_LINUX }, payload: { email, password: GOOD_PASSWORD }, remoteAddress: '10.1.0.1' })
    const cookies = cookiesSetBy(login)
    const cookie = cookieHeader({ 'service-auth-token': cookies['service-auth-token']?.value, 'service-csrf-token': cookies['service-csrf-token']?.value })
    await signUpAndLogIn(hub.app)

    const response = await activity(hub.app, cookie)
    expect(response.statusCode, response.body).toBe(200)
    const page = response.json<ActivityPage>()
    expect(page).toEqual({
      events: [
        { type: 'signin', at: expect.any(String), ip: '10.1.0.1', userAgent: CHROME_ON_LINUX, detail: { method: 'password' } },
        { type: 'signup', at: expect.any(String), ip: '10.1.0.1', userAgent: CHROME_ON_LINUX, detail: {} }
      ],
      hasMore: false,
      nextCursor: null
    })
    const [newest, oldest] = page.events
    expect(Date.parse(newest?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(oldest?.at ?? ''))
  })

  it('pages through many events, ties in time included, with no duplicate and no gap', async () => {
    const user = await signUpAndLogIn(hub.app)
    const start = Date.now() - DAY_MS
    // Three events per millisecond: pages must break inside a millisecond without losing or repeating one.
    for (let index = 0; index < 45; index += 1) {
      await record({ userId: user.userId, type: 'profile.updated', detail: { changed: [String(index)] } }, new Date(start + Math.floor(index / 3)))
    }
    const whole = (await activityPage(hub.app, user, '?limit=100')).events
    expect(whole).toHaveLength(47)
    expect(whole.slice(0, 2).map(({ type }) => type)).toEqual(['signin', 'signup'])
    expect(whole.slice(2).map(({ detail }) => detail.changed)).toEqual(Array.from({ length: 45 }, (_, index) => [String(44 - index)]))

    const pages = await everyPage(hub.app, user, 7)
    expect(pages.map(({ events }) => events.length)).toEqual([7, 7, 7, 7, 7, 7, 5])
    expect(pages.flatMap(({ events }) => events)).toEqual(whole)
    expect(pages.at(-1)).toMatchObject({ hasMore: false, nextCursor: null })
    expect(pages.slice(0, -1).every(({ hasMore, nextCursor }) => hasMore && typeof nextCursor === 'string')).toBe(true)
  })

  it('answers 20 events a page unless asked otherwise, and 100 at most', async () => {
    const user = await signUpAndLogIn(hub.app)
    for (let index = 0; index < 120; index += 1) await record({ userId: user.userId, type: 'session.refreshed' }, new Date(Date.now() - DAY_MS + index))
    expect((await activityPage(hub.app, user)).events).toHaveLength(20)
    expect((await activityPage(hub.app, user, '?limit=100')).events).toHaveLength(100)
    expect((await activityPage(hub.app, user, '?limit=1')).events).toHaveLength(1)
  })

  it('shows nothing older than the default retention of 365 days', async () => {
    const user = await signUpAndLogIn(hub.app)
    await record({ userId: user.userId, type: 'password.changed', detail: { sessionsEnded: 1 } }, new Date(Date.now() - 364 * DAY_MS))
    await record({ userId: user.userId, type: 'email.verified' }, new Date(Date.now() - 366 * DAY_MS))
    const types = (await activityPage(hub.app, user)).events.map(({ type }) => type)
    expect(types).toEqual(['signin', 'signup', 'password.changed'])
  })

  it("shows nothing older than the person's own retention, even before pruning runs", async () => {
    const user = await signUpAndLogIn(hub.app)
    const saved = await hub.app.inject({ method: 'PUT', url: '/api/privacy/settings', headers: user.headers, payload: { retention: { activityLogDays: 30 } } })
    expect(saved.statusCode, saved.body).toBe(200)
    await record({ userId: user.userId, type: 'password.changed', detail: { sessionsEnded: 0 } }, new Date(Date.now() - 29 * DAY_MS))
    await record({ userId: user.userId, type: 'email.verified' }, new Date(Date.now() - 31 * DAY_MS))
    const types = (await activityPage(hub.app, user)).events.map(({ type }) => type)
    expect(types).toEqual(['privacy.updated', 'signin', 'signup', 'password.changed'])
  })

  it('shows only the detail fields meant for the person: no session handle, no passkey id', async () => {
    const user = await signUpAndLogIn(hub.app)
    const at = new Date()
    await record({ userId: user.userId, type: 'session.ended', detail: { scope: 'one', session: 'handle-abc', current: false } }, at)
    await record({ userId: user.userId, type: 'signin.failed', detail: { method: 'passkey', reason: 'unknown-passkey', passkey: 'credential-xyz' } }, at)
    await record({ userId: user.userId, type: 'session.reauthenticated', detail: { method: 'password', session: 'handle-def' } }, at)
    const { events } = await activityPage(hub.app, user, '?limit=3')
    expect(events.map(({ type, detail }) => ({ type, detail }))).toEqual([
      { type: 'session.reauthenticated', detail: { method: 'password' } },
      { type: 'signin.failed', detail: { method: 'passkey', reason: 'unknown-passkey' } },
      { type: 'session.ended', detail: { scope: 'one', current: false } }
    ])
  })

  it('leaves out an event of a type the hub no longer knows, which it would have no words for', async () => {
    const user = await signUpAndLogIn(hub.app)
    await record({ userId: user.userId, type: 'retired.event' as AuditEventType }, new Date())
    const types = (await activityPage(hub.app, user)).events.map(({ type }) => type)
    expect(types).toEqual(['signin', 'signup'])
  })

  it.each([
    ['not base64 JSON', 'not-a-cursor'],
    ['JSON of another shape', cursorOf({ createdAt: '2030-01-01T00:00:00.000Z' })],
    ['a time that is not one', cursorOf(['yesterday', '0190a6c2-4b3e-7c1a-8f00-000000000000'])],
    ['an id that is not a UUID', cursorOf(['2030-01-01T00:00:00.000Z', 'x'])],
    ['an empty string', '']
  ])('refuses a cursor that is %s: 400', async (_case, cursor) => {
    const user = await signUpAndLogIn(hub.app)
    const response = await activity(hub.app, user.headers.cookie ?? '', `?cursor=${encodeURIComponent(cursor)}`)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'Cursor is invalid' })
  })

  it.each([
    ['0', 'Limit must be at least 1'],
    ['101', 'Limit must be at most 100'],
    ['ten', 'Limit must be an integer'],
    ['2.5', 'Limit must be an integer']
  ])('refuses limit=%s: 400', async (limit, error) => {
    const user = await signUpAndLogIn(hub.app)
    const response = await activity(hub.app, user.headers.cookie ?? '', `?limit=${limit}`)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error })
  })
})

describe.each(databasesUnderTest())('the activity API under an external provider on $name', (database) => {
  const idp = useHubWithExternalProvider(database)

  it("lists the hub's own records of someone who signs in at the provider", async () => {
    const cookies = cookiesSetBy(await idp.signIn())
    const listed = await activity(idp.app, cookieHeader({ 'service-auth-token': cookies['service-auth-token']?.value }))
    expect(listed.statusCode, listed.body).toBe(200)
    expect(listed.json<ActivityPage>().events.map(({ type, detail }) => ({ type, detail }))).toContainEqual({ type: 'signin', detail: { method: 'id-token' } })
  })
})
