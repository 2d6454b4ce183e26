import { createLocalJWKSet, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, HUB_ORIGIN, buildTestHubApp, useHubApp, cookiesSetBy, uniqueEmail } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('sign-up and login on $name', (database) => {
  const hub = useHubApp(database)

  const signup = (payload: unknown, remoteAddress = '10.1.0.1') =>
    hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: payload as object, remoteAddress })
  const login = (payload: unknown, remoteAddress = '10.1.0.2') =>
    hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, remoteAddress })

  it('creates an account with a normalised email and an argon2id hash at OWASP strength', async () => {
    const email = uniqueEmail('Mixed.Case')
    const response = await signup({ email: `  ${email.toUpperCase()} `, password: GOOD_PASSWORD })
    expect(response.statusCode, response.body).toBe(200)
    const { userId } = response.json<{ userId: string }>()
    const row = await hub.handle.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
    expect(row.email).toBe(email.toLowerCase())
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(row.disabled).toBe(0)
    expect(Date.parse(row.createdAt)).not.toBeNaN()
  })

  it('refuses an email already registered, whatever its case: 409', async () => {
    const email = uniqueEmail()
    expect((await signup({ email, password: GOOD_PASSWORD })).statusCode).toBe(200)
    const again = await signup({ email: email.toUpperCase(), password: GOOD_PASSWORD })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ error: 'An account with this email already exists' })
  })

  it.each([
    ['a missing email', { password: GOOD_PASSWORD }, 'Email is required'],
    ['a missing password', { email: 'a@example.com' }, 'Password is required'],
    ['a mistyped email', { email: 5, password: GOOD_PASSWORD }, 'Email must be a string'],
    ['an invalid email', { email: 'not-an-email', password: GOOD_PASSWORD }, 'Email must be a valid email address'],
    ['an email without a dotted domain', { email: 'a@localhost', password: GOOD_PASSWORD }, 'Email must be a valid email address'],
    ['a short password', { email: 'short@example.com', password: 'seven77' }, 'Password must be at least 8 characters'],
    ['a long password', { email: 'long@example.com', password: 'x'.repeat(129) }, 'Password must be at most 128 characters'],
    ['a common password', { email: 'common@example.com', password: 'Password123' }, 'Password is too common; choose one that is harder to guess'],
    ['another common password', { email: 'common@example.com', password: 'qwertyuiop' }, 'Password is too common; choose one that is harder to guess'],
    ['an empty password', { email: 'empty@example.com', password: '' }, 'Password must be at least 8 characters'],
    ['a body that is not an object', [1, 2], 'Body must be an object']
  ])('refuses %s: 400 saying why', async (_case, payload, error) => {
    const response = await signup(payload)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error })
  })

  it('counts passwords in characters, not bytes', async () => {
    const response = await signup({ email: uniqueEmail(), password: 'ñ'.repeat(8) })
    expect(response.statusCode, response.body).toBe(200)
  })

  it('logs in: userId, an ID token, its expiry, and the auth and CSRF cookies', async () => {
    const email = uniqueEmail()
    const { userId } = (await signup({ email, password: GOOD_PASSWORD })).json<{ userId: string }>()
    const response = await login({ email: email.toUpperCase(), password: GOOD_PASSWORD })
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json<{ userId: string; idToken: string; expiresAt: string }>()
    expect(body.userId).toBe(userId)
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now())
    // The ID token: signed with a key the hub publishes, for two minutes, naming the user, its own id and the login's session.
    const published = createLocalJWKSet((await hub.app.inject({ url: '/.well-known/jwks.json' })).json())
    const { payload } = await jwtVerify(body.idToken, published, { issuer: HUB_ORIGIN, audience: HUB_ORIGIN })
    expect(payload).toMatchObject({ sub: userId, email: email.toLowerCase(), jti: expect.any(String), sid: expect.any(String) })
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(2 * 60)
    const cookies = cookiesSetBy(response)
    expect(cookies['service-auth-token']?.value).toMatch(/^v1\./)
    expect(cookies['service-csrf-token']?.value).toBeTruthy()
  })

  it('answers a wrong password and an unknown email alike: 401, same body, no cookie', async () => {
    const email = uniqueEmail()
    await signup({ email, password: GOOD_PASSWORD })
    const wrongPassword = await login({ email, password: 'not the password at all' })
    const unknownEmail = await login({ email: uniqueEmail('nobody'), password: 'not the password at all' })
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual({ error: 'Email or password is incorrect' })
      expect(cookiesSetBy(response)['service-auth-token']).toBeUndefined()
    }
  })

  it('refuses a disabled account like a wrong password', async () => {
    const email = uniqueEmail()
    await signup({ email, password: GOOD_PASSWORD })
    await hub.handle.db.updateTable('users').set({ disabled: 1 }).where('email', '=', email).execute()
    const response = await login({ email, password: GOOD_PASSWORD })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'Email or password is incorrect' })
  })

  it.each([
    ['no body fields', {}, 'Email is required'],
    ['a mistyped password', { email: 'a@example.com', password: 12345678 }, 'Password must be a string'],
    ['a body that is not an object', [], 'Body must be an object']
  ])('refuses a login with %s: 400', async (_case, payload, error) => {
    const response = await login(payload)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error })
  })

  it('turns sign-up off with HUB_SIGNUP=closed: 403', async () => {
    const closed = await buildTestHubApp(hub.handle, { config: { signup: 'closed' } })
    const response = await closed.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: uniqueEmail(), password: GOOD_PASSWORD } })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({ error: 'Sign-up is closed on this hub' })
    await closed.close()
  })
})
