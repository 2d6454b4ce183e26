import { describe, expect, it, vi } from 'vitest'
import * as hashing from '../../../../src/hub/kernel/accounts/password-hashing.js'
import { createAccounts } from '../../../../src/hub/kernel/accounts/accounts.js'
import type { UsersRepository } from '../../../../src/hub/kernel/accounts/repository.js'

vi.mock('../../../../src/hub/kernel/accounts/password-hashing.js', async (importOriginal) => {
  const original = await importOriginal<typeof hashing>()
  return { ...original, verifyAgainstDummy: vi.fn(original.verifyAgainstDummy) }
})

const noUsers: UsersRepository = { findByEmail: async () => undefined, findById: async () => undefined, insert: async () => true }

describe('authenticate', () => {
  it('hashes a dummy for an unknown email, so it costs what a wrong password costs', async () => {
    const accounts = createAccounts(noUsers)
    expect(await accounts.authenticate({ email: 'nobody@example.com', password: 'whatever-password' })).toEqual({ outcome: 'unknown-email' })
    expect(hashing.verifyAgainstDummy).toHaveBeenCalledWith('whatever-password')
  })
})
