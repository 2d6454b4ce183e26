import { describe, expect, it } from 'vitest'
import { SESSION_CACHE_TTL_MS } from '../../../../src/hub/kernel/sessions/sessions.js'
import { setAccountDisabled } from '../../../../src/hub/kernel/accounts/account-status.js'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, logIn, signUpAndLogIn, testClock, useHubApp } from '../../../helpers/hub-app.js'

const generateToken = (app: App, user: SignedIn) =>
  app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
const login = (app: App, email: string) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: GOOD_PASSWORD } })

describe.each(databasesUnderTest())('disabling an account on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now })

  it("ends the account's sessions and refuses its password and ID tokens until it is enabled again", async () => {
    const laptop = await signUpAndLogIn(hub.app)
    const phone = await logIn(hub.app, laptop.email)
    const bystander = await signUpAndLogIn(hub.app)
    expect((await generateToken(hub.app, laptop)).statusCode).toBe(200)

    const disabled = await setAccountDisabled(hub.handle.db, laptop.email.toUpperCase(), true, clock.now())
    expect(disabled).toEqual({ userId: laptop.userId, email: laptop.email, endedSessions: 2 })
    // A session read just before is trusted for a moment longer; then it is gone.
    clock.advance(SESSION_CACHE_TTL_MS + 1)
    for (const session of [laptop, phone]) expect((await generateToken(hub.app, session)).statusCode).toBe(401)
    expect((await login(hub.app, laptop.email)).statusCode).toBe(401)
    const setCookie = await hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: laptop.userId, idToken: laptop.idToken } })
    expect(setCookie.statusCode).toBe(401)
    expect((await generateToken(hub.app, bystander)).statusCode).toBe(200)

    expect(await setAccountDisabled(hub.handle.db, laptop.email, false, clock.now())).toEqual({ userId: laptop.userId, email: laptop.email, endedSessions: 0 })
    const again = await logIn(hub.app, laptop.email)
    const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: again.headers, payload: { format: 'json' } })
    const trail = exported.json<{ datasets: { auditTrail: { type: string; detail: unknown }[] } }>().datasets.auditTrail
    expect(trail.filter((event) => event.type.startsWith('account.'))).toEqual([
      // An operator's command, not a request: no address or user agent to keep.
      expect.objectContaining({ type: 'account.disabled', detail: { endedSessions: 2 }, ip: null, userAgent: null }),
      expect.objectContaining({ type: 'account.enabled', detail: {}, ip: null, userAgent: null })
    ])
  })

  it('changes nothing for an email no account has', async () => {
    expect(await setAccountDisabled(hub.handle.db, 'nobody@example.com', true, clock.now())).toBeUndefined()
  })
})
