import type { FastifyReply, FastifyRequest } from 'fastify'
import type { VNode } from 'preact'
import { render } from 'preact-render-to-string'
import { type Static, Type } from 'typebox'
import { HttpError } from '../../../shared/errors.js'
import type { App } from '../../../shared/http/server.js'
import { WRONG_CURRENT_PASSWORD } from '../sessions/current-password.js'
import { languageOfAccount } from '../language/account-language.js'
import { ACTIVITY_PAGE_SIZE, type ActivityLog } from '../../features/activity/activity.js'
import { INVALID_RESET_LINK } from '../../features/account/password-reset.js'
import type { OwnAccountRepository } from '../../features/account/repository.js'
import type { PrivacyService } from '../../features/privacy/service.js'
import type { PasskeyRepository } from '../../features/passkeys/repository.js'
import type { AccountSession } from '../sessions/account-sessions.js'
import type { BillingOverviewOf } from '../../features/billing/overview.js'
import type { Plans } from '../../features/billing/plans.js'
import type { TwoStepRepository } from '../../features/two-step/repository.js'
import { type ApplicationNames, applicationName } from './application-names.js'
import { type PageAssets, assetRoutes } from './assets.js'
import { translatorFor } from './i18n/index.js'
import { LANGUAGE_COOKIE, type Language, chooseLanguage, isLanguage, languageCookieOptions } from '../language/language.js'
import type { PageContext } from './layout.js'
import { DEFAULT_LANDING_PATH, loginPathReturningTo, safeNextPath } from '../language/next-path.js'
import type { ConnectedApplications } from '../../features/oidc/connected-applications.js'
import { AccountPage } from './views/account.js'
import { ActivityPage } from './views/activity.js'
import { BillingPage } from './views/billing.js'
import { DashboardPage, type PageUser } from './views/dashboard.js'
import { ExportPage } from './views/export.js'
import { MAILED_LINK_PAGES, MailedLinkPage } from './views/mailed-link.js'
import { PrivacyPage } from './views/privacy.js'
import { ForgotPasswordPage, ResetPasswordPage } from './views/recovery.js'
import type { RecentSignInMethods } from './views/recent-sign-in-dialog.js'
import { type OwnSignInSettings, SecurityPage } from './views/security.js'
import { LOGIN_NOTICES, type LoginNotice, LoginPage, SignupPage } from './views/sign-in.js'

/** The signed-in session behind a page request. */
export interface PageSession extends PageUser {
  sessionId: string
}

export interface HubPagesOptions {
  /** The live session of a request, or null when its auth cookie is missing, forged, expired or revoked. */
  sessionOf: (request: FastifyRequest) => Promise<PageSession | null>
  /** The live sessions of a page session's user, for the dashboard. */
  sessionsOf: (session: PageSession) => Promise<AccountSession[]>
  /** The activity page's events: the same pages as `GET /api/account/activity`. */
  activity: Pick<ActivityLog, 'page'>
  /** Registered applications (HUB_APPS): id → URL. */
  applications: Readonly<Record<string, string>>
  /** Their display names (HUB_APPS `name=`, else the id title-cased), by id. */
  applicationNames: Readonly<Record<string, string>>
  /** The registered OpenID Connect clients' names, by client id: how the activity and privacy pages name them. */
  oidcClientNames: () => Promise<Readonly<Record<string, string>>>
  privacy: Pick<PrivacyService, 'settings' | 'consents'>
  exportDatasets: readonly { name: string; description: string }[]
  /** The applications an export asks for what they hold (HUB_APPS `export=`), by id. */
  exportApplications: readonly string[]
  /** Whether cookies are Secure (the hub is served over https). */
  secureCookies: boolean
  /** This response's CSP script nonce. */
  cspNonce: (reply: FastifyReply) => string
  assets: PageAssets
  /**
   * The built-in provider's accounts. Absent under an external provider, which keeps its people's
   * passwords, addresses and language: then the account and recovery pages are not served (404).
   */
  ownAccount?: Pick<OwnAccountRepository, 'profileOf'>
  /** The applications signed in with the hub over OpenID Connect, listed on the account page. */
  connectedApplications: Pick<ConnectedApplications, 'list'>
  /** Two-step sign-in and passkeys, the built-in provider's too: absent under an external provider. */
  ownSignIn?: {
    twoStep: Pick<TwoStepRepository, 'credentialOf' | 'recoveryCodesLeft'>
    passkeys: Pick<PasskeyRepository, 'listOf'>
  }
  /** The billing page's reads (docs/billing.md); `payments` when Stripe is configured, else no payment button is shown. */
  billing: { overviewOf: BillingOverviewOf; plans: Pick<Plans, 'list'>; payments: boolean }
  /**
   * Without HUB_SMTP_URL mail is written to DATA_DIR/outbox, not sent: the command that reads it,
   * which the pages promising a mail show. Undefined when mail is sent.
   */
  mailOutbox: string | undefined
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
const ActivityQuery = Type.Object({ cursor: Type.Optional(Type.Unknown({ description: 'Where the older page starts' })) })
const LanguageQuery = Type.Object({ lang: Type.Optional(Type.Unknown()), next: Type.Optional(Type.Unknown()) })
const hide = true

/**
 * The hub's browser pages. Each handler reads what it shows and renders it; the session check of
 * protected pages redirects to the login page, coming back to the same page afterwards.
 */
export async function hubPages(app: App, options: HubPagesOptions) {
  const { sessionOf, sessionsOf, activity, applications, privacy, exportDatasets, secureCookies, cspNonce, assets, ownAccount, ownSignIn, mailOutbox } = options

  /**
   * The switch's cookie wins for its browser; else the language a signed-in person chose for the
   * account; else the browser's (as for an account whose person chose none). The account is read
   * only when no cookie decided (`accountLocale` when already read, null for no choice).
   */
  const languageOf = async (request: FastifyRequest, session: PageSession | null, accountLocale?: string | null): Promise<Language> => {
    const cookie = request.cookies[LANGUAGE_COOKIE]
    if (isLanguage(cookie)) return cookie
    const locale = accountLocale !== undefined ? accountLocale : session && (await ownAccount?.profileOf(session.userId))?.locale
    return locale ? languageOfAccount(locale) : chooseLanguage(undefined, request.headers['accept-language'])
  }
  const contextOf = async (request: FastifyRequest, reply: FastifyReply, session: PageSession | null, accountLocale?: string | null): Promise<PageContext> => {
    const language = await languageOf(request, session, accountLocale)
    reply.header('content-language', language)
    const signedIn = session !== null
    return { language, t: translatorFor(language), nonce: cspNonce(reply), assets, currentPath: request.url, signedIn, accountPages: ownAccount !== undefined }
  }
  /** Every application a page may name, with the OpenID Connect clients as registered now. */
  const applicationNamesNow = async (): Promise<ApplicationNames> => ({ applications: options.applicationNames, clients: await options.oidcClientNames() })
  const sendPage = (reply: FastifyReply, page: VNode) =>
    // Pages show personal data: never stored by a shared cache or the browser's back-forward store.
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(`<!doctype html>${render(page)}`)

  const signedInSession = async (request: FastifyRequest, reply: FastifyReply) => {
    request.pageSession = await sessionOf(request)
    if (!request.pageSession) return reply.redirect(loginPathReturningTo(request.url), 303)
  }
  /** The page a link asks for; a garbled link to an older page shows the newest one rather than an error. */
  const activityPageFor = async (userId: string, cursor: unknown) => {
    const limit = ACTIVITY_PAGE_SIZE.default
    if (typeof cursor === 'string') {
      try {
        return { list: await activity.page(userId, { limit, cursor }), older: true }
      } catch (error) {
        if (!(error instanceof HttpError && error.statusCode === 400)) throw error
      }
    }
    return { list: await activity.page(userId, { limit }), older: false }
  }
  /** A pending set-up is not on: sign-in does not ask for its codes. */
  const ownSignInSettingsOf = async (userId: string): Promise<Omit<OwnSignInSettings, 'addressVerified'> | undefined> => {
    if (!ownSignIn) return undefined
    const [credential, recoveryCodesLeft, passkeys] = await Promise.all([
      ownSignIn.twoStep.credentialOf(userId),
      ownSignIn.twoStep.recoveryCodesLeft(userId),
      ownSignIn.passkeys.listOf(userId)
    ])
    return { twoStep: { on: credential?.confirmedAt != null, recoveryCodesLeft }, passkeys }
  }
  const recentSignInMethodsOf = (settings: Omit<OwnSignInSettings, 'addressVerified'> | undefined): RecentSignInMethods => ({
    code: settings?.twoStep.on ?? false,
    passkey: (settings?.passkeys.length ?? 0) > 0
  })
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
    return sendPage(reply, <LoginPage context={await contextOf(request, reply, null)} next={next} notice={known} mailOutbox={mailOutbox} />)
  })

  app.get('/signup', { schema: { hide, querystring: NextQuery } }, async (request, reply) => {
    const next = safeNextPath(request.query.next)
    if (await sessionOf(request)) return reply.redirect(next ?? DEFAULT_LANDING_PATH, 303)
    return sendPage(reply, <SignupPage context={await contextOf(request, reply, null)} next={next} mailOutbox={mailOutbox} />)
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
      const names: ApplicationNames = { applications: options.applicationNames, clients: {} }
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
      const [sessions, settings, profile] = await Promise.all([sessionsOf(session), ownSignInSettingsOf(session.userId), ownAccount?.profileOf(session.userId)])
      const signIn = settings && { ...settings, addressVerified: profile?.emailVerified ?? false }
      return sendPage(reply, <SecurityPage context={await contextOf(request, reply, session, profile?.locale)} sessions={sessions} signIn={signIn} email={session.email} />)
    })

    pages.get('/privacy', { schema: { hide } }, async (request, reply) => {
      const session = sessionFrom(request)
      const [settings, consents, names] = await Promise.all([privacy.settings(session.userId), privacy.consents(session.userId), applicationNamesNow()])
      return sendPage(reply, <PrivacyPage context={await contextOf(request, reply, session)} settings={settings} consents={consents} names={names} />)
    })

    pages.get<{ Querystring: Static<typeof ActivityQuery> }>('/activity', { schema: { hide, querystring: ActivityQuery } }, async (request, reply) => {
      const session = sessionFrom(request)
      const [{ list, older }, names] = await Promise.all([activityPageFor(session.userId, request.query.cursor), applicationNamesNow()])
      return sendPage(reply, <ActivityPage context={await contextOf(request, reply, session)} activity={list} older={older} names={names} />)
    })

    pages.get('/export', { schema: { hide } }, async (request, reply) =>
      sendPage(reply, <ExportPage context={await contextOf(request, reply, sessionFrom(request))} datasets={exportDatasets} applications={options.exportApplications.map((id) => applicationName({ applications: options.applicationNames, clients: {} }, id))} />)
    )

    pages.get('/billing', { schema: { hide } }, async (request, reply) => {
      const session = sessionFrom(request)
      const { overviewOf, plans, payments } = options.billing
      const [overview, allPlans] = await Promise.all([overviewOf(session.userId), payments ? plans.list() : []])
      // Only a plan Stripe sells can be subscribed to; the one in effect is already had.
      const offers = allPlans.filter((plan) => plan.stripePriceId !== null && plan.id !== overview.plan.id)
      return sendPage(reply, <BillingPage context={await contextOf(request, reply, session)} overview={overview} offers={offers} payments={payments} />)
    })

    if (ownAccount) {
      pages.get('/account', { schema: { hide } }, async (request, reply) => {
        const session = sessionFrom(request)
        const [profile, signIn, connectedApplications] = await Promise.all([
          ownAccount.profileOf(session.userId),
          ownSignInSettingsOf(session.userId),
          options.connectedApplications.list(session.userId)
        ])
        // A session outlives no account, but a read can race the account's deletion.
        if (!profile) return reply.redirect(loginPathReturningTo(request.url), 303)
        const context = await contextOf(request, reply, session, profile.locale)
        const page = (
          <AccountPage
            context={context}
            profile={{ ...profile, locale: profile.locale === null ? null : languageOfAccount(profile.locale) }}
            wrongPasswordError={WRONG_CURRENT_PASSWORD}
            recentSignIn={recentSignInMethodsOf(signIn)}
            connectedApplications={connectedApplications}
            mailOutbox={mailOutbox}
            userId={session.userId}
          />
        )
        return sendPage(reply, page)
      })
    }
  })

  // Pages a mailed link or the login page opens, signed in or not; the provider's own otherwise.
  if (ownAccount) {
    app.get('/forgot-password', { schema: { hide } }, async (request, reply) =>
      sendPage(reply, <ForgotPasswordPage context={await contextOf(request, reply, await sessionOf(request))} mailOutbox={mailOutbox} />)
    )
    app.get('/reset-password', { schema: { hide } }, async (request, reply) =>
      sendPage(reply, <ResetPasswordPage context={await contextOf(request, reply, await sessionOf(request))} linkRefusedError={INVALID_RESET_LINK} />)
    )
    for (const path of Object.keys(MAILED_LINK_PAGES) as (keyof typeof MAILED_LINK_PAGES)[]) {
      app.get(path, { schema: { hide } }, async (request, reply) =>
        sendPage(reply, <MailedLinkPage context={await contextOf(request, reply, await sessionOf(request))} path={path} />)
      )
    }
  }
}
