import * as argon2 from '@node-rs/argon2'
import { describe, expect, it, vi } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { prepareDummyHash } from '../../../../src/hub/kernel/accounts/password-hashing.js'

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof argon2>()
  return { ...original, hash: vi.fn(original.hash), verify: vi.fn(original.verify) }
})

describe.each(databasesUnderTest())('the dummy hash on $name', (database) => {
  const hub = useHubApp(database)

  it('is computed while the hub starts: the first unknown-email login costs one verify and no hash', async () => {
    vi.mocked(argon2.hash).mockClear()
    vi.mocked(argon2.verify).mockClear()
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: uniqueEmail('nobody'), password: 'some password' } })
    expect(response.statusCode).toBe(401)
    expect(argon2.hash).not.toHaveBeenCalled()
    expect(argon2.verify).toHaveBeenCalledTimes(1)
  })

  it('is what a password is checked against on an account without one (made with a passkey): one verify, as for a wrong password', async () => {
    const email = uniqueEmail('passkey-only')
    const at = new Date().toISOString()
    await hub.handle.db.insertInto('users').values({ id: `passkey-only-${process.pid}`, email, passwordHash: null, disabled: 0, emailVerified: 1, createdAt: at, updatedAt: at, displayName: null, locale: null }).execute()
    vi.mocked(argon2.verify).mockClear()
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'some password' } })
    expect([response.statusCode, response.json()]).toEqual([401, { error: 'Email or password is incorrect' }])
    expect(vi.mocked(argon2.verify).mock.calls.map(([hash]) => hash)).toEqual([await prepareDummyHash()])
  })
})
