import type { FastifyReply, FastifyRequest } from 'fastify'
import { badRequest, unauthorized } from '../../../shared/errors.js'
import type { UserRow } from '../../../shared/database/schema.js'
import type { SignInThrottle } from '../rate-limit/sign-in-throttle.js'
import { signInRefused } from './sign-in.js'
import { verifyPassword } from '../accounts/password-hashing.js'

/** The 401 of a wrong current password; the account page tells it from a lost session's 401 by this text. */
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect'

/** The 400 of a change that asks the current password, given none, on an account that has one. */
export const CURRENT_PASSWORD_REQUIRED = 'Give your current password'

/**
 * Checks the password a signed-in person gives to change their credentials. It is counted as a
 * login of the account (the same counters, keyed by its address), so a stolen session cannot
 * guess the password faster than a login could, and ten wrong tries lock logins too: 429 while
 * locked, 401 when wrong, 400 when missing. An account without a password (made with a passkey,
 * docs/account.md) has none to give: every route calling this requires a recent sign-in, and
 * for such an account that proof (a passkey's) is the whole of it; `password` is not looked at.
 */
export async function requireCurrentPassword(
  throttle: SignInThrottle,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  password: string | undefined,
  missing: string = CURRENT_PASSWORD_REQUIRED
): Promise<void> {
  if (user.passwordHash === null) return
  if (password === undefined) throw badRequest(missing)
  const { passwordHash } = user
  await requireCountedProof(throttle, request, reply, user.email, () => verifyPassword(passwordHash, password), WRONG_CURRENT_PASSWORD)
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
