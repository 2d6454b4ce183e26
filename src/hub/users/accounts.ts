import { randomUUID } from 'node:crypto'
import { badRequest } from '../../shared/errors.js'
import { conflict } from '../http-errors.js'
import { emailProblem, normaliseEmail, passwordProblem } from './credentials.js'
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password-hashing.js'
import type { UsersRepository } from './repository.js'

/** The built-in identity provider's rules for creating accounts and checking passwords. */
export function createAccounts(users: UsersRepository) {
  return {
    /** Creates an account; 400 saying why the email or password is refused, 409 when the email is taken. */
    async create(input: { email: string; password: string }, now: Date): Promise<{ userId: string; email: string }> {
      const email = normaliseEmail(input.email)
      const problem = emailProblem(email) ?? passwordProblem(input.password)
      if (problem) throw badRequest(problem)
      const timestamp = now.toISOString()
      const user = {
        id: randomUUID(),
        email,
        passwordHash: await hashPassword(input.password),
        disabled: 0,
        createdAt: timestamp,
        updatedAt: timestamp
      }
      if (!(await users.insert(user))) throw conflict('An account with this email already exists')
      return { userId: user.id, email }
    },

    /** The account these credentials open, or null: unknown email, wrong password and disabled account look alike. */
    async authenticate(input: { email: string; password: string }): Promise<{ userId: string; email: string } | null> {
      const user = await users.findByEmail(normaliseEmail(input.email))
      if (!user) {
        await verifyAgainstDummy(input.password)
        return null
      }
      const matches = await verifyPassword(user.passwordHash, input.password)
      return matches && user.disabled === 0 ? { userId: user.id, email: user.email } : null
    }
  }
}

export type Accounts = ReturnType<typeof createAccounts>
