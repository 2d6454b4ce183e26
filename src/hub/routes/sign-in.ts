import type { FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../../shared/errors.js'
import { errorResponses } from '../../shared/http/schemas.js'
import type { App } from '../../shared/http/server.js'
import type { AuditRequest } from '../audit/context.js'
import { SetCookieBody, SessionResponse } from '../schemas.js'
import type { SessionCookies } from '../sessions/session-cookies.js'
import type { Sessions } from '../sessions/sessions.js'
import { storableUserAgent } from '../storable-text.js'
import type { IdTokenVerifier, VerifiedIdentity } from '../tokens/identity.js'

export interface SignInDependencies {
  sessions: Sessions
  sessionCookies: SessionCookies
  audit: AuditRequest
  now: () => Date
}

/** How the user proved who they are: their password (login) or an ID token (set-cookie). */
export type SignInMethod = 'password' | 'id-token'

/** Starts a session for a verified identity, sets its cookies and audits it; answers when the auth cookie expires. */
export async function signIn(
  { sessions, sessionCookies, audit, now }: SignInDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
  identity: VerifiedIdentity,
  method: SignInMethod
): Promise<Date> {
  const at = now()
  const userAgent = storableUserAgent(request.headers['user-agent'] ?? '')
  const { session, cookie } = await sessions.start(identity, userAgent, at)
  sessionCookies.set(reply, session.id, cookie, at)
  await audit(request, { userId: identity.userId, type: 'signin', detail: { method } })
  return cookie.expiresAt
}

/**
 * POST /api/auth/set-cookie. The spec sends only the user id; we also require the identity
 * provider's ID token for it, since a session minted from a bare id would let anyone sign in as
 * anyone (docs/hub.md): a bare id is 401, like a token that does not verify.
 */
export async function setCookieRoute(app: App, deps: SignInDependencies & { idTokens: IdTokenVerifier }) {
  app.post(
    '/api/auth/set-cookie',
    {
      schema: {
        summary: 'Start a session from an ID token the browser obtained from the identity provider',
        tags: ['auth'],
        body: SetCookieBody,
        response: { 200: SessionResponse, ...errorResponses(400, 401, 403) }
      }
    },
    async (request, reply) => {
      const { userId, idToken } = request.body
      const identity = idToken === undefined ? null : await deps.idTokens.verify(idToken, deps.now())
      if (!identity || identity.userId !== userId) {
        throw unauthorized('The ID token is invalid, expired or not for this user')
      }
      const expiresAt = await signIn(deps, request, reply, identity, 'id-token')
      return { userId: identity.userId, expiresAt: expiresAt.toISOString() }
    }
  )
}
