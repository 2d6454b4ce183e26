import * as argon2 from '@node-rs/argon2'
import { describe, expect, it, vi } from 'vitest'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'

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
})
