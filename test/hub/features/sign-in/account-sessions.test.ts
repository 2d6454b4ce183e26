import { describe, expect, it } from 'vitest'
import { sessionHandle } from '../../../../src/hub/kernel/sessions/session-handle.js'
import { SESSION_CACHE_TTL_MS } from '../../../../src/hub/kernel/sessions/sessions.js'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import {
  GOOD_PASSWORD,
  type SignedIn,
  buildTestHubApp,
  cookieHeader,
  cookiesSetBy,
  signUpAndLogIn,
  signedInBy,
  testClock,
  uniqueEmail,
  useHubApp
} from '../../../helpers/hub-app.js'

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const SESSIONS = '/api/account/sessions'

interface ListedSession {
  id: string
  current: boolean
  userAgent: string
  device: string | null
  createdAt: string
  lastSeenAt: string
}

/** The session id the auth cookie carries (`v1.<user>.<session>.<expires>.<mac>`). */
const sessionIdOf = (user: SignedIn) => user.authCookie.split('.')[2] ?? ''
const handleOf = (user: SignedIn) => sessionHandle(sessionIdOf(user))

/** A password login from a given browser: another session of the same account. */
async function logInFrom(app: App, email: string, userAgent: string): Promise<SignedIn> {
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'user-agent': userAgent }, payload: { email, password: GOOD_PASSWORD } })
  expect(login.statusCode, login.body).toBe(200)
  return signedInBy(login, email)
}

const list = (app: App, user: SignedIn) => app.inject({ method: 'GET', url: SESSIONS, headers: { cookie: user.headers.cookie ?? '' } })
const listed = async (app: App, user: SignedIn) => (await list(app, user)).json<{ sessions: ListedSession[] }>().sessions
const end = (app: App, user: SignedIn, handle: string, headers = user.headers) =>
  app.inject({ method: 'DELETE', url: `${SESSIONS}/${encodeURIComponent(handle)}`, headers })
const endOthers = (app: App, user: SignedIn, headers = user.headers) => app.inject({ method: 'DELETE', url: SESSIONS, headers })

describe.each(databasesUnderTest())('a person’s sessions over HTTP on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now })

  /** One account signed in from a laptop, then (a second later) from a desktop. */
  const twoSessions = async () => {
    const email = uniqueEmail('sessions')
    const signup = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD } })
    expect(signup.statusCode).toBe(200)
    const laptop = await logInFrom(hub.app, email, CHROME_ON_LINUX)
    clock.advance(1_000)
    const desktop = await logInFrom(hub.app, email, FIREFOX_ON_WINDOWS)
    return { laptop, desktop }
  }

  it('lists both sessions, newest first, with the current one marked and a device name, named by handle only', async () => {
    const { laptop, desktop } = await twoSessions()
    const response = await list(hub.app, desktop)
    expect(response.statusCode, response.body).toBe(200)
    const { sessions } = response.json<{ sessions: ListedSession[] }>()
    expect(sessions).toEqual([
      { id: handleOf(desktop), current: true, userAgent: FIREFOX_ON_WINDOWS, device: 'Firefox on Windows', createdAt: clock.now().toISOString(), lastSeenAt: clock.now().toISOString() },
      expect.objectContaining({ id: handleOf(laptop), current: false, userAgent: CHROME_ON_LINUX, device: 'Chrome on Linux' })
    ])
    // The same list seen from the laptop marks the laptop.
    expect((await listed(hub.app, laptop)).map(({ current }) => current)).toEqual([false, true])
    for (const user of [laptop, desktop]) expect(response.body).not.toContain(sessionIdOf(user))
  })

  it('ends another session: its cookie is refused at once, the caller stays signed in', async () => {
    const { laptop, desktop } = await twoSessions()
    // This instance now caches the laptop's row: ending it must not wait for the cache to expire.
    expect((await list(hub.app, laptop)).statusCode).toBe(200)
    const ended = await end(hub.app, desktop, handleOf(laptop))
    expect(ended.statusCode, ended.body).toBe(204)
    expect(ended.body).toBe('')
    expect(cookiesSetBy(ended)['service-auth-token']).toBeUndefined()
    expect((await list(hub.app, laptop)).statusCode).toBe(401)
    expect((await listed(hub.app, desktop)).map(({ id }) => id)).toEqual([handleOf(desktop)])
    // Ended is ended: a second try finds nothing.
    expect((await end(hub.app, desktop, handleOf(laptop))).statusCode).toBe(404)
  })

  it('ending the current session by its handle signs the caller out', async () => {
    const { desktop } = await twoSessions()
    const ended = await end(hub.app, desktop, handleOf(desktop))
    expect(ended.statusCode).toBe(204)
    expect(cookiesSetBy(ended)['service-auth-token']?.value).toBe('')
    expect((await list(hub.app, desktop)).statusCode).toBe(401)
  })

  it("answers 404 for another user's session, as for one that never existed, and leaves it working", async () => {
    const victim = await signUpAndLogIn(hub.app)
    const other = await signUpAndLogIn(hub.app)
    const foreign = await end(hub.app, other, handleOf(victim))
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toEqual({ error: 'Session not found' })
    const unknown = await end(hub.app, other, 'no-such-session')
    expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({ status: 404, body: foreign.json() })
    // Neither the raw session id works as a handle.
    expect((await end(hub.app, other, sessionIdOf(victim))).statusCode).toBe(404)
    expect((await end(hub.app, victim, sessionIdOf(victim))).statusCode).toBe(404)
    clock.advance(SESSION_CACHE_TTL_MS + 1)
    expect((await list(hub.app, victim)).statusCode).toBe(200)
  })

  it('signs out everywhere else and keeps the current session', async () => {
    const { laptop, desktop } = await twoSessions()
    const phone = await logInFrom(hub.app, laptop.email, 'HearthTest/1.0')
    for (const cached of [laptop, phone]) expect((await list(hub.app, cached)).statusCode).toBe(200)
    const response = await endOthers(hub.app, desktop)
    expect(response.statusCode, response.body).toBe(204)
    expect(cookiesSetBy(response)['service-auth-token']).toBeUndefined()
    for (const gone of [laptop, phone]) expect((await list(hub.app, gone)).statusCode).toBe(401)
    expect(await listed(hub.app, desktop)).toEqual([expect.objectContaining({ id: handleOf(desktop), current: true })])
    // Nothing else left: still 204.
    expect((await endOthers(hub.app, desktop)).statusCode).toBe(204)
  })

  it('leaves another user’s sessions alone when signing out everywhere else', async () => {
    const bystander = await signUpAndLogIn(hub.app)
    const user = await signUpAndLogIn(hub.app)
    expect((await endOthers(hub.app, user)).statusCode).toBe(204)
    clock.advance(SESSION_CACHE_TTL_MS + 1)
    expect((await list(hub.app, bystander)).statusCode).toBe(200)
  })

  it('refuses both deletes without the CSRF header (403) and changes nothing', async () => {
    const { laptop, desktop } = await twoSessions()
    const withoutToken = { cookie: desktop.headers.cookie ?? '' }
    for (const response of [await end(hub.app, desktop, handleOf(laptop), withoutToken), await endOthers(hub.app, desktop, withoutToken)]) {
      expect(response.statusCode).toBe(403)
      expect(response.json()).toEqual({ error: 'CSRF token missing or incorrect' })
    }
    expect(await listed(hub.app, desktop)).toHaveLength(2)
  })

  it('answers 401 without a session, for the list and both deletes', async () => {
    const health = await hub.app.inject({ url: '/api/health' })
    const csrfToken = cookiesSetBy(health)['service-csrf-token']?.value ?? ''
    const headers = { cookie: cookieHeader({ 'service-csrf-token': csrfToken }), 'x-csrf-token': csrfToken }
    const responses = [
      await hub.app.inject({ method: 'GET', url: SESSIONS }),
      await hub.app.inject({ method: 'DELETE', url: `${SESSIONS}/anything`, headers }),
      await hub.app.inject({ method: 'DELETE', url: SESSIONS, headers })
    ]
    expect(responses.map(({ statusCode }) => statusCode)).toEqual([401, 401, 401])
    expect(responses[0]?.json()).toEqual({ error: 'Sign in required: the auth cookie is missing, invalid or expired' })
  })

  it('records each end in the audit trail, by handle, and the export names no session id', async () => {
    const { laptop, desktop } = await twoSessions()
    const phone = await logInFrom(hub.app, laptop.email, 'HearthTest/1.0')
    expect((await end(hub.app, desktop, handleOf(laptop))).statusCode).toBe(204)
    expect((await endOthers(hub.app, desktop)).statusCode).toBe(204)
    const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: desktop.headers, payload: { format: 'json' } })
    const trail = exported.json<{ datasets: { auditTrail: { type: string; detail: unknown }[] } }>().datasets.auditTrail
    expect(trail.filter(({ type }) => type === 'session.ended').map(({ detail }) => detail)).toEqual([
      { scope: 'one', session: handleOf(laptop), current: false },
      { scope: 'others', count: 1 }
    ])
    for (const user of [laptop, desktop, phone]) expect(exported.body).not.toContain(sessionIdOf(user))
  })
})

describe.each(databasesUnderTest())('ending sessions across instances on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now })

  it('reaches another instance within the revocation window, one session or all others', async () => {
    const second = await buildTestHubApp(hub.handle, { now: clock.now })
    try {
      const desktop = await signUpAndLogIn(hub.app)
      const laptop = await logInFrom(hub.app, desktop.email, CHROME_ON_LINUX)
      const phone = await logInFrom(hub.app, desktop.email, 'HearthTest/1.0')
      // The other instance has read (and caches) every session.
      for (const user of [desktop, laptop, phone]) expect((await list(second, user)).statusCode).toBe(200)

      expect((await end(hub.app, desktop, handleOf(laptop))).statusCode).toBe(204)
      expect((await endOthers(hub.app, desktop)).statusCode).toBe(204)
      clock.advance(SESSION_CACHE_TTL_MS + 1)
      for (const gone of [laptop, phone]) expect((await list(second, gone)).statusCode).toBe(401)
      expect((await list(second, desktop)).statusCode).toBe(200)
    } finally {
      await second.close()
    }
  })
})
