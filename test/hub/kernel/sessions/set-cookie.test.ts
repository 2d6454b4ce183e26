import { SignJWT, generateKeyPair } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, useHubApp, cookiesSetBy, signUpAndLogIn, testClock } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('set-cookie with the built-in provider on $name', (database) => {
  let alice: SignedIn
  let bob: SignedIn
  const clock = testClock(new Date())
  const hub = useHubApp(database, { now: clock.now })
  beforeAll(async () => {
    alice = await signUpAndLogIn(hub.app)
    bob = await signUpAndLogIn(hub.app)
  })

  const setCookie = (payload: object) => hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload })

  it('starts a session from the user id and its ID token', async () => {
    const response = await setCookie({ userId: alice.userId, idToken: alice.idToken })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ userId: alice.userId, expiresAt: expect.any(String) })
    const authCookie = cookiesSetBy(response)['service-auth-token']?.value
    const csrfToken = cookiesSetBy(response)['service-csrf-token']?.value ?? ''
    const refresh = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `service-auth-token=${authCookie}; service-csrf-token=${csrfToken}`, 'x-csrf-token': csrfToken }
    })
    expect(refresh.statusCode, refresh.body).toBe(200)
  })

  it('refuses a bare user id as unauthenticated: 401, no cookie', async () => {
    const response = await setCookie({ userId: alice.userId })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'The ID token is invalid, expired or not for this user' })
    expect(cookiesSetBy(response)['service-auth-token']).toBeUndefined()
  })

  it('refuses a missing user id or a mistyped field: 400', async () => {
    const cases: [object, string][] = [
      [{ idToken: alice.idToken }, 'UserId is required'],
      [{ userId: 42, idToken: alice.idToken }, 'UserId must be a string'],
      [{ userId: alice.userId, idToken: 42 }, 'IdToken must be a string'],
      [{ userId: alice.userId, idToken: '' }, 'IdToken must be at least 1 characters']
    ]
    for (const [payload, error] of cases) {
      const response = await setCookie(payload)
      expect(response.statusCode, JSON.stringify(payload)).toBe(400)
      expect(response.json(), JSON.stringify(payload)).toEqual({ error })
    }
  })

  it("refuses a disabled account's still valid ID token: 401, no cookie", async () => {
    const carol = await signUpAndLogIn(hub.app)
    await hub.handle.db.updateTable('users').set({ disabled: 1 }).where('id', '=', carol.userId).execute()
    const response = await setCookie({ userId: carol.userId, idToken: carol.idToken })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ error: 'The ID token is invalid, expired or not for this user' })
    expect(cookiesSetBy(response)['service-auth-token']).toBeUndefined()
  })

  it('refuses forged, foreign, expired and misused tokens: 401, no cookie', async () => {
    const { privateKey } = await generateKeyPair('EdDSA')
    const header = JSON.parse(Buffer.from(alice.idToken.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }
    const claims = JSON.parse(Buffer.from(alice.idToken.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: header.kid }).sign(privateKey)
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${alice.idToken.split('.')[1]}.`
    const sso = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: alice.headers, payload: { audience: 'tasks' } })
    const cases: [string, object][] = [
      ["another user's token", { userId: alice.userId, idToken: bob.idToken }],
      ['a token signed with a key the hub does not hold', { userId: alice.userId, idToken: forged }],
      ['an unsigned token (alg none)', { userId: alice.userId, idToken: unsigned }],
      ['an SSO token instead of an ID token', { userId: alice.userId, idToken: sso.json<{ token: string }>().token }],
      ['something that is not a JWT', { userId: alice.userId, idToken: 'not-a-jwt' }]
    ]
    for (const [name, payload] of cases) {
      const response = await setCookie(payload)
      expect(response.statusCode, name).toBe(401)
      expect(response.json(), name).toEqual({ error: 'The ID token is invalid, expired or not for this user' })
      expect(cookiesSetBy(response)['service-auth-token'], name).toBeUndefined()
    }
  })

  it('refuses an expired token', async () => {
    const fresh = await signUpAndLogIn(hub.app)
    clock.advance(61 * 60 * 1000 + 30_000)
    const response = await setCookie({ userId: fresh.userId, idToken: fresh.idToken })
    expect(response.statusCode).toBe(401)
    expect(cookiesSetBy(response)['service-auth-token']).toBeUndefined()
  })
})
