import type { FastifyRequest } from 'fastify'
import { unauthorized } from '../../../shared/errors.js'
import type { ActiveSession } from './sessions.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, set by the pipeline's session stage on routes that require one. */
    session: ActiveSession | null
  }
}

/** The session of a request that passed the session stage (a route with `config: { session: 'required' }`). */
export function sessionOf(request: FastifyRequest): ActiveSession {
  if (!request.session) throw unauthorized('Sign in required')
  return request.session
}
