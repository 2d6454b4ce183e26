import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Static } from 'typebox'
import { type HttpError, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { browserLanguageOf } from '../language/account-language.js'
import type { AuditRequest } from '../audit/context.js'
import { tooManyRequests } from '../http/http-errors.js'
import type { SignInOrigin } from '../mail/templates.js'
import type { SignInRefusal, SignInThrottle } from '../rate-limit/sign-in-throttle.js'
import { type LoginResponse, SetCookieBody, SessionResponse } from '../http/schemas.js'
import { deviceOf } from '../http/device.js'
import type { NewDeviceNotices } from './known-devices.js'
import type { SessionCookies } from './session-cookies.js'
import type { Sessions } from './sessions.js'
import { storableUserAgent } from '../http/storable-text.js'
import type { BuiltinIdTokens } from '../tokens/builtin-id-tokens.js'
import type { IdTokenVerifier, VerifiedIdentity } from '../tokens/identity.js'
import type { UsedIdTokens } from '../tokens/used-id-tokens.js'

export interface SignInDependencies {
  sessions: Sessions
  sessionCookies: SessionCookies
  audit: AuditRequest
  now: () => Date
}

/** How the user proved who they are: their password (login), with its second factor, an ID token (set-cookie) or a passkey. */
export type SignInMethod = 'password' | 'password+totp' | 'password+recovery-code' | 'id-token' | 'passkey'

/** A session just started: its id, and when its auth cookie expires. */
export interface StartedSession {
  sessionId: string
  expiresAt: Date
}

/**
 * Starts a session for a verified identity, sets its cookies and audits it. Null, and no cookie,
 * when the built-in account was disabled in the meantime: the session is not created then.
 */
export async function signIn(
  deps: SignInDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
  identity: VerifiedIdentity,
  method: SignInMethod
): Promise<StartedSession | null> {
  const started = await startSession(deps, request, reply, identity)
  if (started) await deps.audit(request, { userId: identity.userId, type: 'signin', detail: { method } })
  return started
}

/** A session and its cookies, unaudited; with where the sign-in came from, for the new-device notice. */
async function startSession(
  { sessions, sessionCookies, now }: SignInDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
  identity: VerifiedIdentity
): Promise<(StartedSession & { origin: SignInOrigin }) | null> {
  const at = now()
  const userAgent = storableUserAgent(request.headers['user-agent'] ?? '')
  const started = await sessions.start(identity, userAgent, at)
  if (!started) return null
  const { session, cookie } = started
  sessionCookies.set(reply, session.id, cookie, at)
  return { sessionId: session.id, expiresAt: cookie.expiresAt, origin: { device: deviceOf(userAgent), ip: request.ip, at, language: browserLanguageOf(request) } }
}

export interface LoginDependencies extends SignInDependencies {
  idTokens: BuiltinIdTokens
  newDeviceNotices: NewDeviceNotices
}

/**
 * Login's answer for a built-in account whose owner has proven who they are: a session, its
 * cookies, and an ID token bound to it; a sign-in from a device new to the account is mailed to
 * it. Null, and no cookie, when the account was disabled since it was read (see `signIn`).
 */
export async function completeLogin(
  deps: LoginDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
  account: VerifiedIdentity,
  method: SignInMethod
): Promise<Static<typeof LoginResponse> | null> {
  const started = await startSession(deps, request, reply, account)
  if (!started) return null
  const newDevice = await deps.newDeviceNotices.signedIn(account.userId, started.origin)
  await deps.audit(request, { userId: account.userId, type: 'signin', detail: newDevice ? { method, newDevice } : { method } })
  const { idToken } = await deps.idTokens.issue(account, started.sessionId, deps.now())
  return { userId: account.userId, idToken, expiresAt: started.expiresAt.toISOString() }
}

const REFUSAL_MESSAGES: Record<SignInRefusal['limit'], string> = {
  failures: 'Too many failed sign-ins; try again later',
  'sign-ins': 'Too many sign-ins to this account; try again later'
}

/** The 429 for a sign-in the throttle refused, with `Retry-After`. */
export function signInRefused(reply: FastifyReply, refusal: SignInRefusal): HttpError {
  return tooManyRequests(reply, refusal.retryInMs, REFUSAL_MESSAGES[refusal.limit])
}

export interface SetCookieDependencies extends SignInDependencies {
  idTokens: IdTokenVerifier
  usedIdTokens: UsedIdTokens
  throttle: SignInThrottle
}

/**
 * POST /api/auth/set-cookie. The spec sends only the user id; we also require the identity
 * provider's ID token for it, since a session minted from a bare id would let anyone sign in as
 * anyone (docs/hub.md): a bare id is 401, like a token that does not verify. Throttled like login,
 * by user id and IP.
 */
export async function setCookieRoute(app: App, deps: SetCookieDependencies) {
  app.post(
    '/api/auth/set-cookie',
    {
      // The caller holds no session, so no token bound to one; the ID token is its proof.
      config: { csrf: false },
      schema: {
        summary: 'Start a session from an ID token the browser obtained from the identity provider',
        tags: ['auth'],
        body: SetCookieBody,
        response: { 200: SessionResponse, ...errorResponses(400, 401, 403, 429) }
      }
    },
    async (request, reply) => {
      const { userId, idToken } = request.body
      const refusal = await deps.throttle.signInAttempt('set-cookie', userId, request.ip)
      if (refusal) throw signInRefused(reply, refusal)
      const started = idToken === undefined ? null : await signInWithIdToken(deps, request, reply, userId, idToken)
      if (!started) {
        await deps.throttle.signInFailed('set-cookie', userId)
        throw unauthorized('The ID token is invalid, expired or not for this user')
      }
      await deps.throttle.signInSucceeded('set-cookie', userId, request.ip)
      return { userId, expiresAt: started.expiresAt.toISOString() }
    }
  )
}

/**
 * A session from an ID token that verifies, names this user, has not been used before, and whose
 * own session (the login it came from, for the built-in provider) has not been signed out.
 */
async function signInWithIdToken(
  deps: SetCookieDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  idToken: string
): Promise<StartedSession | null> {
  const at = deps.now()
  const verified = await deps.idTokens.verify(idToken, at)
  if (!verified || verified.identity.userId !== userId) return null
  if (verified.sessionId !== undefined && !(await deps.sessions.isOpen(verified.sessionId, userId, at))) return null
  if (!(await deps.usedIdTokens.markUsed(verified, at))) return null
  return signIn(deps, request, reply, verified.identity, 'id-token')
}
