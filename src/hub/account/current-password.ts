import type { FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../../shared/errors.js'
import type { UserRow } from '../../shared/database/schema.js'
import type { SignInThrottle } from '../rate-limit/sign-in-throttle.js'
import { signInRefused } from '../routes/sign-in.js'
import { verifyPassword } from '../users/password-hashing.js'

/**
 * Checks the password a signed-in person gives to change their credentials. It is counted as a
 * login of the account (the same counters, keyed by its address), so a stolen session cannot
 * guess the password faster than a login could, and ten wrong tries lock logins too: 429 while
 * locked, 401 when wrong.
 */
export async function requireCurrentPassword(throttle: SignInThrottle, request: FastifyRequest, reply: FastifyReply, user: UserRow, password: string): Promise<void> {
  const refusal = await throttle.signInAttempt('login', user.email, request.ip)
  if (refusal) throw signInRefused(reply, refusal)
  if (!(await verifyPassword(user.passwordHash, password))) {
    await throttle.signInFailed('login', user.email)
    throw unauthorized('Current password is incorrect')
  }
  await throttle.signInSucceeded('login', user.email, request.ip)
}
