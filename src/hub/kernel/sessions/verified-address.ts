import type { FastifyRequest } from 'fastify'
import { forbidden } from '../../../shared/errors.js'
import { sessionOf } from './request-session.js'
import type { UsersRepository } from '../accounts/repository.js'

/** The 403 of a sign-in method added to an account whose address no mailed link has proven yet. */
export const ADDRESS_NOT_VERIFIED =
  'Confirm your address first: open the link mailed to it (POST /api/account/email/verification mails a new one), then add two-step sign-in or a passkey'

/**
 * What the pipeline's sensitive-change stage asks of a route that adds a way to sign in (a
 * passkey, two-step sign-in; `config: { verifiedAddress: true }`): 403 unless
 * the account's address is verified. Until it is, whoever made the account may not own the
 * address, and what they add would outlast the owner's password reset (docs/account.md,
 * "Account pre-hijacking"). Placed before the recent sign-in's check, so a person is not asked to
 * confirm who they are for a change that would be refused anyway. An account deleted meanwhile is
 * left to the route, which answers 401 for it.
 */
export function requireVerifiedAddress(users: Pick<UsersRepository, 'findById'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const user = await users.findById(sessionOf(request).userId)
    if (user && user.emailVerified !== 1) throw forbidden(ADDRESS_NOT_VERIFIED)
  }
}
