import type { FastifyRequest } from 'fastify'
import { insertInBatches } from '../../../shared/database/insert-batches.js'
import { storableUserAgent } from '../http/storable-text.js'
import type { AuditEventInput } from './events.js'
import { type AuditTrail, auditEventRow } from './repository.js'

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

/**
 * Requests' events that arrive in the same turn of the event loop share one INSERT: one commit
 * instead of one each, which on SQLite was most of what an event cost (100–140 µs alone, about 22
 * a row shared; docs/performance.md). Each is still stored before its request goes on, and keeps the id and
 * time of its call, so the trail's order is the order of the calls as before.
 */
export function auditRequests(trail: AuditTrail): AuditRequest {
  const insert = insertInBatches(trail.insert)
  return (request, event) => insert(auditEventRow({ ...event, ...requestOrigin(request) }, new Date()))
}
