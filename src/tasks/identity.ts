import type { FastifyReply, FastifyRequest } from 'fastify'
import type { TasksAuthMode } from '../shared/config.js'
import { HttpError, badRequest, unauthorized } from '../shared/errors.js'
import { SsoTokenError, type SsoTokenVerifier } from '../shared/sso/token-verifier.js'

export const USER_ID_HEADER = 'x-user-id'
const USER_ID_MAX_LENGTH = 256
const BEARER = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i

export type IdentifyCaller = (request: FastifyRequest, reply: FastifyReply) => Promise<string>

/**
 * Who is calling, by TASKS_AUTH: `header` trusts `x-user-id` (the spec, for use behind a gateway
 * that sets it); `token` accepts only the hub's SSO token; `either` takes the token when there is
 * one, else the header. When both arrive they must name the same user.
 */
export function callerIdentification(mode: TasksAuthMode, verifyToken: SsoTokenVerifier | undefined): IdentifyCaller {
  if (mode === 'header') return async (request) => userIdHeader(request) ?? missing(`${USER_ID_HEADER} header is required`)
  if (!verifyToken) throw new Error(`TASKS_AUTH=${mode} needs an SSO token verifier`)

  return async (request, reply) => {
    try {
      const claimed = userIdHeader(request)
      const token = bearerToken(request)
      if (token === undefined) {
        if (mode === 'either' && claimed !== undefined) return claimed
        return missing(mode === 'token' ? 'Bearer token is required' : `Bearer token or ${USER_ID_HEADER} header is required`)
      }
      const { userId } = await verifyToken(token)
      if (claimed !== undefined && claimed !== userId) throw unauthorized(`${USER_ID_HEADER} does not match the SSO token`)
      return userId
    } catch (error) {
      // RFC 6750: a 401 tells the client which scheme to use and, for a bad token, why.
      const invalid = error instanceof SsoTokenError ? ', error="invalid_token"' : ''
      if (error instanceof SsoTokenError || (error instanceof HttpError && error.statusCode === 401)) {
        reply.header('www-authenticate', `Bearer realm="hearth"${invalid}`)
      }
      if (error instanceof SsoTokenError) throw unauthorized(error.message)
      throw error
    }
  }
}

function missing(message: string): never {
  throw unauthorized(message)
}

function userIdHeader(request: FastifyRequest): string | undefined {
  const value = request.headers[USER_ID_HEADER]
  if (typeof value !== 'string' || value.trim() === '') return undefined
  if (value.length > USER_ID_MAX_LENGTH) throw badRequest(`${USER_ID_HEADER} header must be at most ${USER_ID_MAX_LENGTH} characters`)
  return value
}

function bearerToken(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization
  if (authorization === undefined || authorization.trim() === '') return undefined
  const match = BEARER.exec(authorization)
  if (!match?.[1]) throw unauthorized('Authorization must be a Bearer token')
  return match[1]
}
