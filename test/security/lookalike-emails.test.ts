import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../helpers/databases.js'
import { GOOD_PASSWORD, uniqueEmail, useHubApp } from '../helpers/hub-app.js'

/**
 * Issue 15, item 8. Attack: a second account under an address that looks exactly like someone
 * else's (the same letters in another Unicode spelling, or with an invisible character inside),
 * so that people, audit trails and applications that show the email mistake one for the other.
 */
describe.each(databasesUnderTest())('look-alike emails on $name', (database) => {
  const hub = useHubApp(database)
  let ip = 0
  // Each request from its own address, so the per-IP sign-up limit stays out of the way.
  const nextIp = () => `10.8.${Math.floor(++ip / 250)}.${ip % 250}`
  const signup = (email: string) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD }, remoteAddress: nextIp() })
  const login = (email: string) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: GOOD_PASSWORD }, remoteAddress: nextIp() })
  const storedEmailOf = async (userId: string) =>
    (await hub.handle.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email

  it('treats the NFC and NFD spellings of an address as one account', async () => {
    const composed = uniqueEmail('jos\u00e9')
    const decomposed = composed.normalize('NFD')
    expect(decomposed).not.toBe(composed)

    const first = await signup(decomposed)
    expect(first.statusCode, first.body).toBe(200)
    const { userId } = first.json<{ userId: string }>()
    expect(await storedEmailOf(userId)).toBe(composed)

    const second = await signup(composed)
    expect(second.statusCode).toBe(409)
    expect(second.json()).toEqual({ error: 'An account with this email already exists' })
    for (const spelling of [composed, decomposed]) {
      const response = await login(spelling)
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json<{ userId: string }>().userId).toBe(userId)
    }
  })

  it.each([
    ['a zero-width space', 'ada\u200b'],
    ['a zero-width joiner', 'a\u200dda'],
    ['a byte order mark inside', 'a\ufeffda'],
    ['a right-to-left override', 'ada\u202e'],
    ['a bidi isolate', '\u2066ada'],
    ['a soft hyphen', 'a\u00adda'],
    ['a C1 control', 'ada\u0085']
  ])('refuses an address with %s: 400, no account', async (_case, localPart) => {
    const email = uniqueEmail(localPart)
    const response = await signup(email)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'Email must not contain control or invisible characters' })
    expect(await hub.handle.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).execute()).toEqual([])
  })

  it('refuses an invisible character in the domain too, rather than dropping it', async () => {
    const response = await signup(`ada-${process.pid}@exa\u200bmple.com`)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'Email must not contain control or invisible characters' })
  })

  it('keeps the domain in its IDNA form, so its Unicode and ASCII spellings are one account', async () => {
    const local = uniqueEmail('ada').split('@')[0] ?? ''
    const created = await signup(`${local}@B\u00dcCHER.example`)
    expect(created.statusCode, created.body).toBe(200)
    const { userId } = created.json<{ userId: string }>()
    expect(await storedEmailOf(userId)).toBe(`${local}@xn--bcher-kva.example`)
    expect((await signup(`${local}@xn--bcher-kva.example`)).statusCode).toBe(409)
    const response = await login(`${local}@b\u00fccher.example`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json<{ userId: string }>().userId).toBe(userId)
  })

  it('refuses a domain IDNA cannot encode: 400', async () => {
    const response = await signup(`ada-${process.pid}@xn--i\u00f1valid.example`)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ error: 'Email must be a valid email address' })
  })
})
