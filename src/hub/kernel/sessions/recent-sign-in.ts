import type { FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../../../shared/errors.js'
import { sessionOf } from './request-session.js'
import type { SessionsRepository } from './repository.js'

/** How recent a proof of who holds the session must be for a sensitive change. */
export const RECENT_SIGN_IN_MS = 10 * 60_000

export const RECENT_SIGN_IN_REQUIRED = 'This change needs a recent sign-in: confirm your password, a code or a passkey with POST /api/auth/reauthenticate, then try again'

/**
 * What a client reads to tell this 401 from a signed-out one: RFC 9470's error and `max_age` (in
 * seconds), under a scheme that names what authenticates here, the session cookie.
 */
export const RECENT_SIGN_IN_CHALLENGE = `Session error="insufficient_user_authentication", max_age=${RECENT_SIGN_IN_MS / 1000}`

export interface RecentSignInOptions {
  repository: SessionsRepository
  now: () => Date
}

/**
 * Sudo mode: `require` is what the pipeline's sensitive-change stage asks of a route that states
 * `config: { recentSignIn: true }`, `record` what a fresh proof calls. The proof's time is read from the
 * sessions table on every check, never from the instance's cached session row, so a proof given on
 * one instance counts on every other at once.
 */
export function createRecentSignIn({ repository, now }: RecentSignInOptions) {
  const isRecent = async (sessionId: string): Promise<boolean> => {
    const authenticatedAt = await repository.authenticatedAtOf(sessionId)
    return authenticatedAt !== null && now().getTime() - Date.parse(authenticatedAt) <= RECENT_SIGN_IN_MS
  }
  return {
    async require(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (await isRecent(sessionOf(request).id)) return
      reply.header('www-authenticate', RECENT_SIGN_IN_CHALLENGE)
      throw unauthorized(RECENT_SIGN_IN_REQUIRED)
    },

    /** Whether the session's last proof is at most 10 minutes old: a page's form asks it, and sends the person to confirm when not. */
    isRecent,

    async record(sessionId: string, at: Date): Promise<void> {
      await repository.recordAuthentication(sessionId, at.toISOString())
    }
  }
}

export type RecentSignIn = ReturnType<typeof createRecentSignIn>
