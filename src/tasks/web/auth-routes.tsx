import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { safeNextPath } from '../../hub/kernel/language/next-path.js'
import { badRequest, serviceUnavailable } from '../../shared/errors.js'
import type { BrowserSessionCookies } from './browser-session.js'
import { SIGN_IN_COOKIE, clearedCookieOptions, privateCookieOptions, signCookieValue, unsignCookieValue } from './cookies.js'
import { BACKCHANNEL_LOGOUT_PATH, CALLBACK_PATH, type HubSignIn, type PendingSignIn, SIGNED_OUT_PATH } from './hub-sign-in.js'
import { LogoutTokenRefused } from './logout-token.js'
import type { BrowserSessions } from './sessions.js'
import type { PageRendering } from './page-rendering.js'
import { MessagePage } from './views.js'

export const SIGN_IN_PATH = '/auth/sign-in'
export const SIGN_OUT_PATH = '/auth/sign-out'
/** Long enough to sign in at the hub, two-step included; the pending sign-in is useless after it. */
const SIGN_IN_COOKIE_MAX_AGE_SECONDS = 15 * 60

const hide = true
const SignInQuery = Type.Object({ next: Type.Optional(Type.Unknown()) })
const LogoutBody = Type.Object({ logout_token: Type.Optional(Type.Unknown()) })

export interface AuthRoutesOptions {
  hubSignIn: HubSignIn
  cookies: BrowserSessionCookies
  sessions: BrowserSessions
  verifyLogoutToken: (token: string) => Promise<{ sid?: string; sub?: string }>
  keys: readonly string[]
  secure: boolean
  pages: PageRendering
}

/**
 * Signing in through the hub (authorization code + PKCE), signing out of both, and the hub's
 * back-channel logout. The pending sign-in (PKCE verifier, state, nonce, where to go after) waits
 * in a signed, HttpOnly cookie scoped to the callback.
 */
export async function authRoutes(app: FastifyInstance, { hubSignIn, cookies, sessions, verifyLogoutToken, keys, secure, pages }: AuthRoutesOptions) {
  app.get<{ Querystring: { next?: unknown } }>(SIGN_IN_PATH, { schema: { hide, querystring: SignInQuery } }, async (request, reply) => {
    const started = await hubSignIn.start().catch((error: unknown) => {
      request.log.error({ err: error }, 'the hub cannot be reached for sign-in')
      throw serviceUnavailable('The hub cannot be reached: try again shortly')
    })
    const pending = JSON.stringify({ ...started.pending, next: safeNextPath(request.query.next) ?? '/' })
    reply.setCookie(SIGN_IN_COOKIE, signCookieValue(keys, SIGN_IN_COOKIE, Buffer.from(pending).toString('base64url')), privateCookieOptions(secure, SIGN_IN_COOKIE_MAX_AGE_SECONDS, CALLBACK_PATH))
    return reply.redirect(started.url.href, 303)
  })

  app.get(CALLBACK_PATH, { schema: { hide } }, async (request, reply) => {
    const saved = unsignCookieValue(keys, SIGN_IN_COOKIE, request.cookies[SIGN_IN_COOKIE])
    reply.clearCookie(SIGN_IN_COOKIE, clearedCookieOptions(secure, CALLBACK_PATH))
    const pending = saved === null ? null : (JSON.parse(Buffer.from(saved, 'base64url').toString()) as PendingSignIn & { next: string })
    try {
      if (pending === null) throw new Error('no sign-in is pending in this browser')
      const { userId, hubSid } = await hubSignIn.finish(new URL(request.url, hubSignIn.redirectUri), pending)
      await cookies.start(reply, userId, hubSid)
      return reply.redirect(pending.next, 303)
    } catch (error) {
      request.log.warn({ err: error }, 'sign-in with the hub failed')
      const context = pages.contextOf(request, reply, null)
      const { t } = context
      return pages.send(reply.code(400), <MessagePage context={context} title={t('error.signIn')} text={t('error.signIn')} link={{ href: SIGN_IN_PATH, label: t('signIn.again') }} />)
    }
  })

  app.post(SIGN_OUT_PATH, { schema: { hide } }, async (request, reply) => {
    const session = await cookies.signedIn(request)
    if (session === null) return reply.redirect(SIGNED_OUT_PATH, 303)
    if (!cookies.formIsGenuine(request, session)) return pages.refusedForm(request, reply, session)
    await cookies.end(request, reply)
    return reply.redirect((await hubSignIn.endSessionUrl()).href, 303)
  })

  app.get(SIGNED_OUT_PATH, { schema: { hide } }, async (request, reply) => {
    const context = pages.contextOf(request, reply, null)
    const { t } = context
    return pages.send(reply, <MessagePage context={context} title={t('signedOut.title')} text={t('signedOut.text')} link={{ href: SIGN_IN_PATH, label: t('signedOut.signIn') }} />)
  })

  app.post<{ Body: { logout_token?: unknown } }>(BACKCHANNEL_LOGOUT_PATH, { schema: { hide, body: LogoutBody } }, async (request, reply) => {
    const token = request.body.logout_token
    if (typeof token !== 'string' || token === '') throw badRequest('logout_token is required')
    try {
      const { sid, sub } = await verifyLogoutToken(token)
      // With a `sid` the hub ended one of its sessions: only what was signed in under it ends here.
      if (sid !== undefined) await sessions.endHubSession(sid)
      else if (sub !== undefined) await sessions.endAllOf(sub)
    } catch (error) {
      if (error instanceof LogoutTokenRefused) throw badRequest(error.message)
      throw error
    }
    return reply.header('cache-control', 'no-store').code(200).send()
  })
}
