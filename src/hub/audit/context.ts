import type { FastifyRequest } from 'fastify'

/** Where an audited request came from. */
export interface RequestOrigin {
  ip: string | undefined
  userAgent: string | undefined
}

export function requestOrigin(request: FastifyRequest): RequestOrigin {
  return { ip: request.ip, userAgent: request.headers['user-agent'] }
}
