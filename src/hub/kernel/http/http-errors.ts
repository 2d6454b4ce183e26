import type { FastifyReply } from 'fastify'
import { HttpError } from '../../../shared/errors.js'

export const conflict = (message: string) => new HttpError(409, message)

/** A 429 to throw; sets `Retry-After` (whole seconds, at least one) on the reply first, since the error handler keeps headers. */
export function tooManyRequests(reply: FastifyReply, retryAfterMs: number, message: string): HttpError {
  reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))))
  return new HttpError(429, message)
}

/** A 405 to throw, with the `Allow` header listing what the path accepts. */
export function methodNotAllowed(reply: FastifyReply, method: string, allowed: readonly string[]): HttpError {
  reply.header('allow', allowed.join(', '))
  return new HttpError(405, `Method ${method} is not allowed here; use ${allowed.join(' or ')}`)
}
