import { describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, cookiesSetBy, logIn, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'

interface AuditRecord {
  id: string
  recordedAt: string
  type: string
  ip: string | null
  userAgent: string | null
  detail: Record<string, unknown>
}

/** The user's audit trail, read the only way a user can: through their data export. */
async function auditTrailOf(app: App, user: SignedIn): Promise<{ events: AuditRecord[]; body: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' } })
  expect(response.statusCode, response.body).toBe(200)
  return { events: response.json<{ datasets: { auditTrail: AuditRecord[] } }>().datasets.auditTrail, body: response.body }
}
const summary = ({ type, detail }: AuditRecord) => ({ type, detail })

describe.each(databasesUnderTest())('security events in the audit trail on $name', (database) => {
  const hub = useHubApp(database)
  const client = { 'user-agent': 'AuditTest/1.0' }

  it('records sign-up, password sign-in and ID-token sign-in, with address and user agent but no secret', async () => {
    const email = uniqueEmail('audit')
    const remoteAddress = '10.20.0.1'
    const signup = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', headers: client, payload: { email, password: GOOD_PASSWORD }, remoteAddress })
    expect(signup.statusCode).toBe(200)
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', headers: client, payload: { email, password: GOOD_PASSWORD }, remoteAddress })
    const { userId, idToken } = login.json<{ userId: string; idToken: string }>()
    const setCookie = await hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', headers: client, payload: { userId, idToken }, remoteAddress })
    expect(setCookie.statusCode).toBe(200)
    const user = await logIn(hub.app, email)

    const { events, body } = await auditTrailOf(hub.app, user)
    expect(events.map(summary)).toEqual([
      { type: 'signup', detail: {} },
      { type: 'signin', detail: { method: 'password' } },
      { type: 'signin', detail: { method: 'id-token' } },
      { type: 'signin', detail: { method: 'password' } },
      { type: 'export.created', detail: { format: 'json' } }
    ])
    expect(events.slice(0, 3).map(({ ip, userAgent }) => ({ ip, userAgent }))).toEqual(Array(3).fill({ ip: remoteAddress, userAgent: 'AuditTest/1.0' }))
    for (const secret of [GOOD_PASSWORD, idToken, cookiesSetBy(setCookie)['service-auth-token']?.value ?? '', user.authCookie, user.csrfToken]) {
      expect(body).not.toContain(secret)
    }
  })

  it('records a failed sign-in against the existing account it tried, never the password tried', async () => {
    const user = await signUpAndLogIn(hub.app)
    const wrong = 'not the right password 42'
    const attempt = await hub.app.inject({ method: 'POST', url: '/api/auth/login', headers: client, payload: { email: user.email, password: wrong } })
    expect(attempt.statusCode).toBe(401)
    await hub.handle.db.updateTable('users').set({ disabled: 1 }).where('id', '=', user.userId).execute()
    const disabled = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: GOOD_PASSWORD } })
    expect(disabled.statusCode).toBe(401)
    await hub.handle.db.updateTable('users').set({ disabled: 0 }).where('id', '=', user.userId).execute()

    // The failure is written after the 401 is answered (so it takes no longer than an unknown email's).
    await expect
      .poll(async () => (await auditTrailOf(hub.app, user)).events.filter(({ type }) => type === 'signin.failed').map(summary), { timeout: 5000 })
      .toEqual([
        { type: 'signin.failed', detail: { reason: 'wrong-password' } },
        { type: 'signin.failed', detail: { reason: 'account-disabled' } }
      ])
    expect((await auditTrailOf(hub.app, user)).body).not.toContain(wrong)
  })

  it('records session refreshes, SSO tokens with their audience, and sign-out', async () => {
    const user = await signUpAndLogIn(hub.app)
    const call = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      hub.app.inject({ method, url, headers: { ...user.headers, ...client }, ...(payload ? { payload } : {}) })
    expect((await call('POST', '/api/auth/refresh')).statusCode).toBe(200)
    const sso = await call('POST', '/api/auth/generate-token', { audience: 'tasks' })
    expect(sso.statusCode).toBe(200)
    expect((await call('DELETE', '/api/auth/refresh')).statusCode).toBe(204)

    const { events, body } = await auditTrailOf(hub.app, await logIn(hub.app, user.email))
    expect(events.map(summary)).toEqual([
      { type: 'signup', detail: {} },
      { type: 'signin', detail: { method: 'password' } },
      { type: 'session.refreshed', detail: {} },
      { type: 'sso-token.issued', detail: { audience: 'tasks' } },
      { type: 'signout', detail: {} },
      { type: 'signin', detail: { method: 'password' } },
      { type: 'export.created', detail: { format: 'json' } }
    ])
    expect(events.slice(2, 5).map(({ userAgent }) => userAgent)).toEqual(Array(3).fill('AuditTest/1.0'))
    expect(body).not.toContain(sso.json<{ token: string }>().token)
  })
})
