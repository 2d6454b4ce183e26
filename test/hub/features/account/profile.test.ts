import { describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { type SignedIn, sessionHeaders, signUpAndLogIn, testClock, useHubApp } from '../../../helpers/hub-app.js'

const get = (app: App, user: SignedIn) => app.inject({ method: 'GET', url: '/api/account', headers: { cookie: user.headers.cookie ?? '' } })
const patch = (app: App, user: SignedIn, payload: object, headers = user.headers) => app.inject({ method: 'PATCH', url: '/api/account', headers, payload })

/** The audit trail's event types, as the person's export shows them. */
async function exportedEventTypes(app: App, user: SignedIn): Promise<string[]> {
  const response = await app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' } })
  expect(response.statusCode, response.body).toBe(200)
  const { datasets } = response.json<{ datasets: { auditTrail: { type: string; detail?: unknown }[] } }>()
  return datasets.auditTrail.map(({ type }) => type)
}

describe.each(databasesUnderTest())('the profile over HTTP on $name', (database) => {
  const clock = testClock()
  const hub = useHubApp(database, { now: clock.now })

  it('answers a new account’s profile: no display name, no language chosen, address not verified, a member', async () => {
    const user = await signUpAndLogIn(hub.app)
    const response = await get(hub.app, user)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ userId: user.userId, email: user.email, emailVerified: false, displayName: null, locale: null, role: 'member', createdAt: clock.now().toISOString(), hasPassword: true })
  })

  it('changes the display name (trimmed) and the language, answers the profile and audits which fields changed', async () => {
    const user = await signUpAndLogIn(hub.app)
    const response = await patch(hub.app, user, { displayName: '  Ada Lovelace ', locale: 'es' })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ userId: user.userId, email: user.email, displayName: 'Ada Lovelace', locale: 'es' })
    expect((await get(hub.app, user)).json()).toMatchObject({ displayName: 'Ada Lovelace', locale: 'es' })

    expect((await patch(hub.app, user, { locale: 'en' })).json()).toMatchObject({ displayName: 'Ada Lovelace', locale: 'en' })
    expect(await exportedEventTypes(hub.app, user)).toEqual(expect.arrayContaining(['profile.updated']))
    const events = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', user.userId).where('type', '=', 'profile.updated').orderBy('createdAt').execute()
    expect(events.map(({ detail }) => JSON.parse(detail) as unknown)).toEqual([{ changed: ['displayName', 'locale'] }, { changed: ['locale'] }])
  })

  it('takes 64 characters, counted as characters rather than bytes', async () => {
    const user = await signUpAndLogIn(hub.app)
    const name = 'ñ'.repeat(63) + '😀'
    expect((await patch(hub.app, user, { displayName: name })).json()).toMatchObject({ displayName: name })
  })

  it.each([
    ['an empty name', { displayName: '' }, /Display name must not be empty/],
    ['a name of spaces', { displayName: '   ' }, /Display name must not be empty/],
    ['65 characters', { displayName: 'a'.repeat(65) }, /at most 64 characters/],
    ['a zero-width space', { displayName: 'Ada\u200bLovelace' }, /control or invisible characters/],
    ['a right-to-left override', { displayName: 'Ada\u202eecalevoL' }, /control or invisible characters/],
    ['a control character', { displayName: 'Ada\u0007' }, /control/],
    ['a language the hub does not speak', { locale: 'fr' }, /Locale must be one of: en, es/],
    ['a field that is not the profile’s', { email: 'someone@example.com' }, /.+/]
  ])('refuses %s: 400 {error}, nothing changed', async (_case, payload, message) => {
    const user = await signUpAndLogIn(hub.app)
    const response = await patch(hub.app, user, payload)
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json<{ error: string }>().error).toMatch(message)
    expect((await get(hub.app, user)).json()).toMatchObject({ email: user.email, displayName: null, locale: null })
  })

  it('refuses a change without the CSRF token (403) and any request without a session (401)', async () => {
    const user = await signUpAndLogIn(hub.app)
    const noCsrf = await patch(hub.app, user, { displayName: 'Mallory' }, { cookie: user.headers.cookie ?? '' })
    expect(noCsrf.statusCode).toBe(403)
    expect((await get(hub.app, user)).json()).toMatchObject({ displayName: null })
    expect((await hub.app.inject({ method: 'GET', url: '/api/account' })).statusCode).toBe(401)
  })
})

describe.each(databasesUnderTest())('the own-account routes under an external provider on $name', (database) => {
  const idp = useHubWithExternalProvider(database)

  it('answer 404, as login does: the provider owns profile, password and address; the sessions list stays', async () => {
    const headers = sessionHeaders(await idp.signIn())
    const requests = [
      { method: 'GET', url: '/api/account' },
      { method: 'PATCH', url: '/api/account', payload: { displayName: 'Ada' } },
      { method: 'PUT', url: '/api/account/password', payload: { currentPassword: 'whatever it was', newPassword: 'a brand new passphrase' } },
      { method: 'POST', url: '/api/account/email', payload: { email: 'new@example.com', currentPassword: 'whatever it was' } },
      { method: 'POST', url: '/api/account/email/confirm', payload: { token: 'A'.repeat(43) } }
    ] as const
    for (const request of requests) {
      const response = await idp.app.inject({ ...request, headers })
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(404)
    }
    expect((await idp.app.inject({ method: 'GET', url: '/api/account/sessions', headers })).statusCode).toBe(200)
    expect((await idp.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ada@idp.test', password: 'whatever it was' } })).statusCode).toBe(404)
  })
})
