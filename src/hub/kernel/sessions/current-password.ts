import type { FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../../../shared/errors.js'
import type { UserRow } from '../../../shared/database/schema.js'
import type { SignInThrottle } from '../rate-limit/sign-in-throttle.js'
import { signInRefused } from './sign-in.js'
import { verifyPassword } from '../accounts/password-hashing.js'

/** The 401 of a wrong current password; the account page tells it from a lost session's 401 by this text. */
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect'

/**
 * Checks the password a signed-in person gives to change their credentials. It is counted as a
 * login of the account (the same counters, keyed by its address), so a stolen session cannot
 * guess the password faster than a login could, and ten wrong tries lock logins too: 429 while
 * locked, 401 when wrong.
 */
export async function requireCurrentPassword(throttle: SignInThrottle, request: FastifyRequest, reply: FastifyReply, user: UserRow, password: string): Promise<void> {
  await requireCountedProof(throttle, request, reply, user.email, () => verifyPassword(user.passwordHash, password), WRONG_CURRENT_PASSWORD)
}

/** As above, for any proof a signed-in person gives (a password, a code): `refusal` is the 401's message. */
export async function requireCountedProof(
  throttle: SignInThrottle,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  proves: () => Promise<boolean>,
  refusal: string
): Promise<void> {
  const refused = await throttle.signInAttempt('login', email, request.ip)
  if (refused) throw signInRefused(reply, refused)
  if (!(await proves())) {
    await throttle.signInFailed('login', email)
    throw unauthorized(refusal)
  }
  await throttle.signInSucceeded('login', email, request.ip)
}
