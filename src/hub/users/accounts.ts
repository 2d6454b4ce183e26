import { randomUUID } from 'node:crypto'
import { badRequest } from '../../shared/errors.js'
import { conflict } from '../http-errors.js'
import { emailProblem, normaliseEmail, passwordProblem } from './credentials.js'
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password-hashing.js'
import type { UsersRepository } from './repository.js'
import type { IdTokenVerifier } from '../tokens/identity.js'

export type Authentication =
  | { outcome: 'signed-in'; account: { userId: string; email: string } }
  | { outcome: 'unknown-email' }
  | { outcome: 'wrong-password' | 'account-disabled'; userId: string }

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

    /**
     * What these credentials come to. Unknown email, wrong password and disabled account all
     * answer the same 401; the outcome only tells the audit trail which account was tried.
     */
    async authenticate(input: { email: string; password: string }): Promise<Authentication> {
      const user = await users.findByEmail(normaliseEmail(input.email))
      if (!user) {
        await verifyAgainstDummy(input.password)
        return { outcome: 'unknown-email' }
      }
      if (!(await verifyPassword(user.passwordHash, input.password))) return { outcome: 'wrong-password', userId: user.id }
      if (user.disabled !== 0) return { outcome: 'account-disabled', userId: user.id }
      return { outcome: 'signed-in', account: { userId: user.id, email: user.email } }
    },

    /** Whether this user exists and may sign in. */
    async isActive(userId: string): Promise<boolean> {
      return (await users.findById(userId))?.disabled === 0
    }
  }
}

export type Accounts = ReturnType<typeof createAccounts>

/**
 * An ID token lives an hour; a built-in account disabled within that hour must not open a session
 * with it, as it can no longer log in with its password.
 */
export function activeAccountsOnly(verifier: IdTokenVerifier, accounts: Accounts): IdTokenVerifier {
  return {
    async verify(idToken, now) {
      const identity = await verifier.verify(idToken, now)
      return identity && (await accounts.isActive(identity.userId)) ? identity : null
    }
  }
}
