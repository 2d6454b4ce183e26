import cookie from '@fastify/cookie'
import type { FastifyInstance } from 'fastify'
import type { JWTVerifyGetKey } from 'jose'
import { Type } from 'typebox'
import { cookiesAreSecure } from '../../hub/kernel/http/cookies.js'
import { type PageAssets, assetRoutes } from '../../hub/kernel/pages/assets.js'
import { LANGUAGE_COOKIE, isLanguage, languageCookieOptions } from '../../hub/kernel/language/language.js'
import { safeNextPath } from '../../hub/kernel/language/next-path.js'
import type { AccessRule } from '../plugins/access-check.js'
import type { TasksRepository } from '../repository.js'
import { authRoutes } from './auth-routes.js'
import { browserSessionCookies } from './browser-session.js'
import { createHubSignIn } from './hub-sign-in.js'
import { logoutTokenVerifier } from './logout-token.js'
import { pageRendering } from './page-rendering.js'
import type { BrowserSessions } from './sessions.js'
import { taskPages } from './task-pages.js'

export interface TaskManagerPagesOptions {
  publicUrl: string
  hubIssuer: string
  /** The task manager's client id at the hub: its application id. */
  clientId: string
  hubKeys: JWTVerifyGetKey
  cookieKeys: readonly string[]
  sessions: BrowserSessions
  tasks: TasksRepository
  assets: PageAssets
  access: AccessRule
}

const LanguageQuery = Type.Object({ lang: Type.Optional(Type.Unknown()), next: Type.Optional(Type.Unknown()) })

/**
 * The pages' policy: the hub's stylesheet from here, forms that may lead to the hub (signing out
 * continues there), and script only with the page's nonce. A response that is not a page (a
 * redirect, a refusal) gets no nonce and so no script at all.
 */
export function pagesContentSecurityPolicy(hubIssuer: string, scriptNonce: string | null = null): string {
  const script = scriptNonce === null ? "script-src 'none'" : `script-src 'nonce-${scriptNonce}'; connect-src 'self'`
  return `default-src 'none'; ${script}; style-src 'self'; img-src 'self'; form-action 'self' ${new URL(hubIssuer).origin}; frame-ancestors 'none'; base-uri 'none'`
}

/** The task manager's browser face (docs/task-manager.md, "Pages"), beside the API and apart from it: its own body parser, cookies and policy. */
export async function taskManagerPages(app: FastifyInstance, options: TaskManagerPagesOptions) {
  const { publicUrl, hubIssuer, clientId, hubKeys, cookieKeys, sessions, tasks, assets, access } = options
  const secure = cookiesAreSecure(publicUrl)
  const scriptlessPolicy = pagesContentSecurityPolicy(hubIssuer)

  await app.register(cookie)
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)))
  })
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('content-security-policy', scriptlessPolicy)
    done()
  })

  const cookies = browserSessionCookies({ keys: cookieKeys, secure, sessions })
  const pages = pageRendering({
    cookies,
    assets: { stylesheet: assets.stylesheet, script: assets.tasksScript },
    hubUrl: `${hubIssuer}/dashboard`,
    policyWithNonce: (nonce) => pagesContentSecurityPolicy(hubIssuer, nonce)
  })

  await app.register(assetRoutes, { assets })
  app.get<{ Querystring: { lang?: unknown; next?: unknown } }>('/language', { schema: { hide: true, querystring: LanguageQuery } }, async (request, reply) => {
    const { lang, next } = request.query
    if (isLanguage(lang)) reply.setCookie(LANGUAGE_COOKIE, lang, languageCookieOptions(secure))
    return reply.redirect(safeNextPath(next) ?? '/', 303)
  })
  await app.register(authRoutes, {
    hubSignIn: createHubSignIn({ issuer: hubIssuer, clientId, publicUrl }),
    cookies,
    sessions,
    verifyLogoutToken: logoutTokenVerifier({ keys: hubKeys, issuer: hubIssuer, clientId }),
    keys: cookieKeys,
    secure,
    pages
  })
  await app.register(taskPages, { tasks, cookies, pages, access })
}
