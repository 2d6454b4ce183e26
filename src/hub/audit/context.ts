import type { FastifyRequest } from 'fastify'
import { storableUserAgent } from '../storable-text.js'
import type { AuditEventInput } from './events.js'
import type { AuditTrail } from './repository.js'

/** Where an audited request came from. */
export interface RequestOrigin {
  ip: string | undefined
  userAgent: string | undefined
}

export function requestOrigin(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent']
  return { ip: request.ip, userAgent: userAgent === undefined ? undefined : storableUserAgent(userAgent) }
}

/** Records an event of the request's handling, stamped with where the request came from. */
export type AuditRequest = (request: FastifyRequest, event: Omit<AuditEventInput, keyof RequestOrigin>) => Promise<void>

export function auditRequests(trail: AuditTrail): AuditRequest {
  return (request, event) => trail.record({ ...event, ...requestOrigin(request) })
}
