import type { FastifyReply, FastifyRequest } from 'fastify'
import { type VNode, isValidElement } from 'preact'
import { render } from 'preact-render-to-string'
import { Type } from 'typebox'
import type { SignupMode } from '../../../shared/config.js'
import type { App } from '../../../shared/http/server.js'
import type { Role } from '../accounts/roles.js'
import type { AccountSession } from '../sessions/account-sessions.js'
import { applicationName } from './application-names.js'
import { type PageAssets, assetRoutes } from './assets.js'
import { translatorFor } from './i18n/index.js'
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, type Language, chooseLanguage, isLanguage, languageCookieOptions } from '../language/language.js'
import type { PageContext } from './layout.js'
import { DEFAULT_LANDING_PATH, loginPathReturningTo, safeNextPath } from '../language/next-path.js'
import type { HubPage, PageSession, PageShell, SignInMethodPages } from './shell.js'
import { DashboardPage } from './views/dashboard.js'
import { SecurityPage } from './views/security.js'
import { LOGIN_NOTICES, type LoginNotice, LoginPage, SignupPage } from './views/sign-in.js'

export type { HubPage, PageSession, PageShell, PageSection, SignInMethodPages, SignInMethodState } from './shell.js'

export interface HubPagesOptions {
  /** The live session of a request, or null when its auth cookie is missing, forged, expired or revoked. */
  sessionOf: (request: FastifyRequest) => Promise<PageSession | null>
  /** The live sessions of a page session's user, for the dashboard. */
  sessionsOf: (session: PageSession) => Promise<AccountSession[]>
  /** Registered applications (HUB_APPS): id → URL. */
  applications: Readonly<Record<string, string>>
  /** Their display names (HUB_APPS `name=`, else the id title-cased), by id. */
  applicationNames: Readonly<Record<string, string>>
  /** The registered OpenID Connect clients' names, by client id: how the activity and privacy pages name them. */
  oidcClientNames: () => Promise<Readonly<Record<string, string>>>
  /** Whether cookies are Secure (the hub is served over https). */
  secureCookies: boolean
  /** This response's CSP script nonce. */
  cspNonce: (reply: FastifyReply) => string
  assets: PageAssets
  /**
   * The built-in provider's accounts: the language their person chose, whether their address is
   * proven. Absent under an external provider, which keeps its people's passwords, addresses and
   * language: then the pages offer no account or recovery page.
   */
  ownAccount?: { profileOf: (userId: string) => Promise<{ locale: string | null; emailVerified: boolean; hasPassword: boolean } | undefined> }
  /**
   * The built-in provider's ways of signing in beside the password (two-step sign-in, passkeys, in
   * the order the pages show them), and the API's 401 text for a wrong current password, which the
   * recent-sign-in dialog tells apart. Absent under an external provider, which owns how its people sign in.
   */
  ownSignIn?: { methods: readonly SignInMethodPages[]; wrongPasswordError: string }
  /** The pages the features add (docs/architecture.md), registered once, at start. */
  pages: readonly HubPage[]
  /** The account's role: the navigation leads administrators to the console, whose pages are theirs alone. */
  roleOf: (userId: string) => Promise<Role | undefined>
  /**
   * Without HUB_SMTP_URL mail is written to DATA_DIR/outbox, not sent: the command that reads it,
   * which the pages promising a mail show. Undefined when mail is sent.
   */
  mailOutbox: string | undefined
  /** HUB_SIGNUP: the sign-up page offers its form, and the login page links to it, only where anyone may make an account. */
  signup: SignupMode
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on protected pages by their session check. */
    pageSession: PageSession | null
  }
}

// A page answers a page, never a JSON 400: odd values (repeated, missing) are checked where they are used and ignored there.
const NextQuery = Type.Object({ next: Type.Optional(Type.Unknown({ description: 'Where to go after signing in' })) })
const LoginQuery = Type.Object({ next: NextQuery.properties.next, notice: Type.Optional(Type.Unknown({ description: 'A note from the page that sent the person here' })) })
const LanguageQuery = Type.Object({ lang: Type.Optional(Type.Unknown()), next: Type.Optional(Type.Unknown()) })
const hide = true

/**
 * What the shell lends every page, and the features' routes that answer with a page (a console
 * form's refusal, say): the page context, the session, the application names. Made once at start.
 */
export function createPageShell(options: HubPagesOptions): PageShell {
  const { sessionOf, cspNonce, assets, ownAccount, ownSignIn, mailOutbox } = options
  /**
   * The switch's cookie wins for its browser; else the language a signed-in person chose for the
   * account; else the browser's (as for an account whose person chose none). The account is read
   * only when no cookie decided (`accountLocale` when already read, null for no choice).
   */
  const languageOf = async (request: FastifyRequest, session: PageSession | null, accountLocale?: string | null): Promise<Language> => {
    const cookie = request.cookies[LANGUAGE_COOKIE]
    if (isLanguage(cookie)) return cookie
    const locale = accountLocale !== undefined ? accountLocale : session && (await ownAccount?.profileOf(session.userId))?.locale
    if (!locale) return chooseLanguage(undefined, request.headers['accept-language'])
    return isLanguage(locale) ? locale : DEFAULT_LANGUAGE
  }
  const contextOf = async (request: FastifyRequest, reply: FastifyReply, session: PageSession | null, accountLocale?: string | null): Promise<PageContext> => {
    const [language, role] = await Promise.all([languageOf(request, session, accountLocale), session && options.roleOf(session.userId)])
    reply.header('content-language', language)
    const signedIn = session !== null
    const administrator = role === 'admin'
    return { language, t: translatorFor(language), nonce: cspNonce(reply), assets, currentPath: request.url, signedIn, accountPages: ownAccount !== undefined, administrator }
  }
  return {
    sessionOf,
    contextOf,
    applicationNamesNow: async () => ({ applications: options.applicationNames, clients: await options.oidcClientNames() }),
    applicationNames: { applications: options.applicationNames, clients: {} },
    signInMethodsOf: async (userId) => (ownSignIn ? Promise.all(ownSignIn.methods.map((method) => method.stateOf(userId))) : []),
    mailOutbox
  }
}

/**
 * The hub's page shell and its own pages (login, sign-up, the language switch, the dashboard and
 * the security page), then the pages the features declare. The session check of signed-in pages
 * redirects to the login page, coming back to the same page afterwards.
 */
export async function hubPages(app: App, options: HubPagesOptions) {
  const { sessionOf, sessionsOf, applications, secureCookies, assets, ownAccount, ownSignIn, mailOutbox } = options
  const shell = createPageShell(options)
  const { contextOf, applicationNames: names } = shell
  const sendPage = (reply: FastifyReply, page: VNode) =>
    // Pages show personal data: never stored by a shared cache or the browser's back-forward store.
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(`<!doctype html>${render(page)}`)
  /** What a feature's page's `render` returns is sent, unless it is the reply, already redirected. */
  const sendShown = (reply: FastifyReply, shown: VNode | FastifyReply) => (isValidElement(shown) ? sendPage(reply, shown) : shown)
  const routeOptions = (page: HubPage) => ({ schema: { hide, ...(page.querystring && { querystring: page.querystring }) } })

  const signedInSession = async (request: FastifyRequest, reply: FastifyReply) => {
    request.pageSession = await sessionOf(request)
    if (!request.pageSession) return reply.redirect(loginPathReturningTo(request.url), 303)
  }
  /** Set only behind `signedInSession`, which redirects when there is none. */
  const sessionFrom = (request: FastifyRequest) => request.pageSession as PageSession

  app.decorateRequest('pageSession', null)
  await app.register(assetRoutes, { assets })

  app.get('/', { schema: { hide } }, async (request, reply) =>
    reply.redirect((await sessionOf(request)) ? DEFAULT_LANDING_PATH : '/login', 303)
  )

  app.get('/login', { schema: { hide, querystring: LoginQuery } }, async (request, reply) => {
    const next = safeNextPath(request.query.next)
    // Someone already signed in has nothing to do here.
    if (await sessionOf(request)) return reply.redirect(next ?? DEFAULT_LANDING_PATH, 303)
    const { notice } = request.query
    const known = typeof notice === 'string' && Object.hasOwn(LOGIN_NOTICES, notice) ? (notice as LoginNotice) : undefined
    return sendPage(reply, <LoginPage context={await contextOf(request, reply, null)} next={next} notice={known} mailOutbox={mailOutbox} signup={options.signup} signInMethods={ownSignIn?.methods ?? []} />)
  })

  app.get('/signup', { schema: { hide, querystring: NextQuery } }, async (request, reply) => {
    const next = safeNextPath(request.query.next)
    if (await sessionOf(request)) return reply.redirect(next ?? DEFAULT_LANDING_PATH, 303)
    return sendPage(reply, <SignupPage context={await contextOf(request, reply, null)} next={next} mailOutbox={mailOutbox} signup={options.signup} />)
  })

  app.get('/language', { schema: { hide, querystring: LanguageQuery } }, async (request, reply) => {
    const { lang, next } = request.query
    if (isLanguage(lang)) {
      reply.setCookie(LANGUAGE_COOKIE, lang, languageCookieOptions(secureCookies))
    }
    return reply.redirect(safeNextPath(next) ?? '/', 303)
  })

  await app.register(async function protectedPages(pages) {
    pages.addHook('preHandler', signedInSession)

    pages.get('/dashboard', { schema: { hide } }, async (request, reply) => {
      const session = sessionFrom(request)
      const page = (
        <DashboardPage
          context={await contextOf(request, reply, session)}
          user={session}
          applications={Object.entries(applications).map(([id, url]) => ({ id, name: applicationName(names, id), url }))}
          sessions={await sessionsOf(session)}
        />
      )
      return sendPage(reply, page)
    })

    pages.get('/account/security', { schema: { hide } }, async (request, reply) => {
      const session = sessionFrom(request)
      const [sessions, methods, profile] = await Promise.all([sessionsOf(session), ownSignIn && shell.signInMethodsOf(session.userId), ownAccount?.profileOf(session.userId)])
      const signIn = ownSignIn && methods && { methods, wrongPasswordError: ownSignIn.wrongPasswordError, addressVerified: profile?.emailVerified ?? false, hasPassword: profile?.hasPassword ?? true }
      return sendPage(reply, <SecurityPage context={await contextOf(request, reply, session, profile?.locale)} sessions={sessions} signIn={signIn} email={session.email} />)
    })

    for (const page of options.pages) {
      if (!page.signedIn) continue
      pages.get(page.path, routeOptions(page), async (request, reply) => {
        const session = sessionFrom(request)
        // Anyone but an administrator finds no console: the 404 of a path that does not exist.
        if (page.administrators && (await options.roleOf(session.userId)) !== 'admin') return reply.callNotFound()
        return sendShown(reply, await page.render({ request, reply, session, shell }))
      })
    }
  })

  // Pages anyone opens, signed in or not (a mailed link's, say): the session, if any, is read for the navigation.
  for (const page of options.pages) {
    if (!page.signedIn) app.get(page.path, routeOptions(page), async (request, reply) => sendShown(reply, await page.render({ request, reply, session: await sessionOf(request), shell })))
  }
}
