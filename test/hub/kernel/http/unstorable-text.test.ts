import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'

/**
 * Text PostgreSQL cannot store (NUL) or that would be stored altered (an unpaired surrogate) is
 * refused where a person typed it, and removed from the headers the hub keeps: never a 500.
 */
describe.each(databasesUnderTest())('text the database cannot keep, on $name', (database) => {
  const hub = useHubApp(database)

  it.each([
    ['signup', '/api/auth/signup', () => ({ email: `a\u0000${uniqueEmail()}`, password: GOOD_PASSWORD }), 'Email'],
    ['login', '/api/auth/login', () => ({ email: `a\u0000${uniqueEmail()}`, password: GOOD_PASSWORD }), 'Email'],
    ['set-cookie', '/api/auth/set-cookie', () => ({ userId: 'user\u0000', idToken: 'a.b.c' }), 'UserId']
  ])('%s refuses a NUL in what identifies the person with 400 naming the field', async (_name, url, payload, field) => {
    const response = await hub.app.inject({ method: 'POST', url, payload: payload() })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: `${field} must not contain control characters or unpaired surrogates` })
  })

  it.each([['a\u0000b'], ['\ud800'], ['v1\u0007']])('a consent version %j is refused with 400 and nothing is recorded', async (version) => {
    const user = await signUpAndLogIn(hub.app)
    const response = await hub.app.inject({ method: 'POST', url: '/api/privacy/consent', headers: user.headers, payload: { purpose: 'terms', granted: true, version } })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'Version must not contain control characters or unpaired surrogates' })
    const overview = await hub.app.inject({ url: '/api/privacy/consent', headers: user.headers })
    expect(overview.json()).toMatchObject({ consents: [] })
  })

  it('keeps a user agent without its control characters, in the session and the audit trail', async () => {
    const email = uniqueEmail()
    await hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD } })
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: GOOD_PASSWORD }, headers: { 'user-agent': 'Agent\u0000/1.0' } })
    expect(login.statusCode).toBe(200)
    const { userId } = login.json<{ userId: string }>()
    const session = await hub.handle.db.selectFrom('sessions').select('userAgent').where('userId', '=', userId).executeTakeFirstOrThrow()
    expect(session.userAgent).toBe('Agent/1.0')
    const events = await hub.handle.db.selectFrom('auditEvents').select('userAgent').where('userId', '=', userId).execute()
    expect(events.map((event) => event.userAgent)).toContain('Agent/1.0')
  })
})
