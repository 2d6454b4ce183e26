import { randomUUID } from 'node:crypto'
import { badRequest } from '../../../shared/errors.js'
import { conflict } from '../http/http-errors.js'
import type { Language } from '../language/language.js'
import { emailProblem, normaliseEmail, passwordProblem } from './credentials.js'
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password-hashing.js'
import type { UsersRepository } from './repository.js'
import type { IdTokenVerifier, VerifiedIdentity } from '../tokens/identity.js'

export type Authentication =
  | { outcome: 'signed-in'; account: VerifiedIdentity }
  | { outcome: 'unknown-email' }
  | { outcome: 'wrong-password' | 'account-disabled'; userId: string }

/** The built-in identity provider's rules for creating accounts and checking passwords. */
export function createAccounts(users: UsersRepository) {
  return {
    /**
     * Creates an account; 400 saying why the email or password is refused, 409 when the email is
     * taken. `locale` is the language the person chose, null when they chose none (`users:create`,
     * an API sign-up without one): pages and mail then follow the browser (docs/account.md).
     */
    async create(input: { email: string; password: string }, now: Date, locale: Language | null = null): Promise<{ userId: string; email: string; locale: Language | null }> {
      const problem = emailProblem(input.email) ?? passwordProblem(input.password)
      if (problem) throw badRequest(problem)
      const email = normaliseEmail(input.email)
      const timestamp = now.toISOString()
      const user = {
        id: randomUUID(),
        email,
        passwordHash: await hashPassword(input.password),
        disabled: 0,
        locale,
        createdAt: timestamp,
        updatedAt: timestamp
      }
      if (!(await users.insert(user))) throw conflict('An account with this email already exists')
      return { userId: user.id, email, locale }
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
      return { outcome: 'signed-in', account: { userId: user.id, email: user.email, emailVerified: user.emailVerified === 1 } }
    },

    /** Whether this user exists and may sign in. */
    async isActive(userId: string): Promise<boolean> {
      return (await users.findById(userId))?.disabled === 0
    }
  }
}

export type Accounts = ReturnType<typeof createAccounts>

/**
 * A built-in account disabled after its ID token was issued must not open a session with it, as it
 * can no longer log in with its password. (Starting the session checks again, in the same statement
 * that inserts it: this check alone could pass just before `users:disable` runs.)
 */
export function activeAccountsOnly(verifier: IdTokenVerifier, accounts: Accounts): IdTokenVerifier {
  return {
    async verify(idToken, now) {
      const verified = await verifier.verify(idToken, now)
      return verified && (await accounts.isActive(verified.identity.userId)) ? verified : null
    }
  }
}
