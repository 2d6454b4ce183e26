import type { FastifyReply, FastifyRequest } from 'fastify'
import type { TasksAuthMode } from '../shared/config.js'
import { HttpError, badRequest, unauthorized } from '../shared/errors.js'
import { SsoTokenError, type SsoTokenVerifier } from '../shared/sso/token-verifier.js'

export const USER_ID_HEADER = 'x-user-id'
const USER_ID_MAX_LENGTH = 256
const BEARER = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i

export type IdentifyCaller = (request: FastifyRequest, reply: FastifyReply) => Promise<string>

/** What a request without credentials is told, by TASKS_AUTH. */
const CREDENTIALS_REQUIRED: Record<TasksAuthMode, string> = {
  header: `${USER_ID_HEADER} header is required`,
  token: 'Bearer token is required',
  either: `Bearer token or ${USER_ID_HEADER} header is required`
}

/**
 * Who is calling, by TASKS_AUTH: `header` trusts `x-user-id` (the spec, for use behind a gateway
 * that sets it); `token` accepts only the hub's SSO token; `either` takes the token when there is
 * one, else the header. In every mode, a request carrying both must have them name the same user:
 * a token is never ignored when it is there to be checked.
 */
export function callerIdentification(mode: TasksAuthMode, verifyToken: SsoTokenVerifier): IdentifyCaller {
  const tokenAccepted = mode !== 'header'
  return async (request, reply) => {
    try {
      const claimed = userIdHeader(request)
      // Behind a gateway (header mode) an Authorization of another scheme may be the gateway's own: not ours to refuse.
      const token = bearerToken(request, tokenAccepted)
      if (token === undefined || (!tokenAccepted && claimed === undefined)) {
        if (mode !== 'token' && claimed !== undefined) return claimed
        return missing(CREDENTIALS_REQUIRED[mode])
      }
      const { userId } = await verifyToken(token)
      if (claimed !== undefined && claimed !== userId) throw unauthorized(`${USER_ID_HEADER} does not match the SSO token`)
      return userId
    } catch (error) {
      // RFC 6750: a 401 tells the client which scheme to use and, for a bad token, why.
      const invalid = error instanceof SsoTokenError ? ', error="invalid_token"' : ''
      if (error instanceof SsoTokenError || (tokenAccepted && error instanceof HttpError && error.statusCode === 401)) {
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

/** The token of a `Bearer` Authorization; another scheme is refused (401) when `refuseOtherSchemes`. */
export function bearerToken(request: FastifyRequest, refuseOtherSchemes: boolean): string | undefined {
  const authorization = request.headers.authorization
  if (authorization === undefined || authorization.trim() === '') return undefined
  const match = BEARER.exec(authorization)
  if (match?.[1]) return match[1]
  if (refuseOtherSchemes) throw unauthorized('Authorization must be a Bearer token')
  return undefined
}
