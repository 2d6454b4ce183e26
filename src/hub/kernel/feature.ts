import { readinessRoute } from '../../shared/http/readiness.js'
import type { App } from '../../shared/http/server.js'
import { type AccountFacts, type AccountFactsSource, composeAccountFacts } from './accounts/account-facts.js'
import type { FirstPasskey } from './accounts/first-passkey.js'
import { roleOf } from './accounts/roles.js'
import { AUTH_COOKIE } from './http/cookies.js'
import { healthRoutes } from './http/health.js'
import type { Kernel } from './kernel.js'
import { readinessChecks } from './kernel.js'
import { OUTBOX_COMMAND } from './mail/transport.js'
import { type HubPagesOptions, createPageShell, hubPages } from './pages/plugin.js'
import { CONSOLE_PATH, type ConsoleSection } from './pages/console.js'
import type { HubPage, PageSection, PageShell, SignInMethodPages } from './pages/shell.js'
import type { ExportDataset } from './records/datasets.js'
import type { ConsentLog, RemoveApplications, WithdrawConsents } from './records/consents.js'
import { WRONG_CURRENT_PASSWORD } from './sessions/current-password.js'
import { type ReauthenticationProof, reauthenticateRoute } from './sessions/reauthenticate.js'
import { NO_SECOND_FACTOR, type SecondFactorGate } from './sessions/second-factor.js'
import { setCookieRoute } from './sessions/sign-in.js'
import { type AddedClaims, type ClaimsSource, composeClaimsSources } from './tokens/claims.js'
import { createUsedIdTokens } from './tokens/used-id-tokens.js'

/** A background job: started once the feature's routes are registered; what it returns stops it when the app closes. */
export type BackgroundJob = () => () => Promise<void>

/**
 * The face of a feature (docs/architecture.md, "The feature face"): everything it adds to the hub,
 * each part optional. A feature's folder has one entry, `index.ts`, whose function takes the kernel
 * and returns this. What a feature needs from the others' declarations (every dataset, every
 * proof, the second factor, the consent log) it reads from `FeaturesDeclared`, which the kernel
 * hands to `routes`, `pages` and `removeApplications` once every feature is built.
 */
export interface HubFeature {
  /**
   * Registers its route plugins, after the pipeline and the kernel's routes, in the order the
   * features are listed; `shell` for a route that answers with a page (a console form's refusal).
   */
  routes?: (app: App, declared: FeaturesDeclared, shell: PageShell) => Promise<void>
  /** Started after its routes, in the same order; each stopped when the app closes. */
  jobs?: readonly BackgroundJob[]
  /** Its pages, made once at start; two features may not declare one path. */
  pages?: (declared: FeaturesDeclared) => readonly HubPage[]
  /**
   * A way of signing in beside the password: its parts of the login, security and account pages,
   * and its proof for `POST /api/auth/reauthenticate`. The second factor's comes first, then the
   * others in the order the features are listed.
   */
  signInMethod?: { pages: SignInMethodPages; proof: ReauthenticationProof }
  /** What login and reauthentication ask after the password; one feature at most. */
  secondFactor?: SecondFactorGate
  /** A passkey's registration for an account not made yet (an invitation's, instead of a password); one feature at most. */
  firstPasskey?: FirstPasskey
  /** The account's chosen language and whether its address is proven, which the page shell reads; one feature at most. */
  ownAccount?: OwnAccount
  /** Its parts of the account page, after the password. */
  accountSections?: readonly PageSection[]
  /** Its sections of the administrator's console (its pages are `administrators: true`), in the console's navigation. */
  consoleSections?: readonly ConsoleSection[]
  /** The claims it adds to the hub's tokens, under a scope of its own. */
  claims?: ClaimsSource
  /** What it keeps about a person, in the export's order; the features' in the order listed. */
  datasets?: readonly ExportDataset[]
  /** What must happen before an account is erased, or the deletion fails (a Stripe subscription canceled). */
  beforeErasure?: (userId: string) => Promise<void>
  /** The hub's consent log, which features asking for consent record in; one feature at most. */
  consents?: ConsentRecords
  /** Removes the applications an account's earlier holder let sign in, at the first proof of its address. */
  removeApplications?: (declared: FeaturesDeclared) => RemoveApplications
  /** The names of applications registered at run time, by id (OpenID Connect clients): how the pages name them; one feature at most. */
  applicationNames?: () => Promise<Readonly<Record<string, string>>>
  /** What the console's list of accounts shows of each that this feature keeps (two-step sign-in, passkeys). */
  accountFacts?: AccountFactsSource
}

/** The consent log and withdrawing its granted consents. */
export interface ConsentRecords {
  log: ConsentLog
  withdrawGranted: WithdrawConsents
}

/** The account facts the page shell reads: its chosen language, whether its address is proven, whether it has a password. */
export interface OwnAccount {
  profileOf: (userId: string) => Promise<{ locale: string | null; emailVerified: boolean; hasPassword: boolean } | undefined>
}

/** What the features declared, composed once: what one feature reads of the others. */
export interface FeaturesDeclared {
  signInMethods: readonly SignInMethodPages[]
  /** The proofs beside the password, in the order the summary and the 400 name them. */
  proofs: readonly ReauthenticationProof[]
  /** The second factor, or `NO_SECOND_FACTOR`: the password is enough. */
  secondFactor: SecondFactorGate
  /** Undefined when no feature offers passkeys: accounts are made with a password then. */
  firstPasskey: FirstPasskey | undefined
  ownAccount: OwnAccount | undefined
  accountSections: readonly PageSection[]
  /** Every feature's console sections, in the order the features are listed. */
  consoleSections: readonly ConsoleSection[]
  claims: AddedClaims
  datasets: readonly ExportDataset[]
  /** Every feature's, in order; the first to fail stops the deletion. */
  beforeErasure: (userId: string) => Promise<void>
  consents: ConsentRecords | undefined
  /** Every feature's, in order; answers how many in all. */
  removeApplications: RemoveApplications
  applicationNames: () => Promise<Readonly<Record<string, string>>>
  /** Every feature's `accountFacts` merged, for a page of accounts; defaults for what none says. */
  accountFacts: (userIds: readonly string[]) => Promise<Map<string, AccountFacts>>
}

/** The features composed: their faces, in order, what they declared, and every page. */
export interface ComposedFeatures {
  features: readonly HubFeature[]
  declared: FeaturesDeclared
  pages: readonly HubPage[]
}

/**
 * Composes the features' declarations once, at start (never per request): the lists each
 * declaration makes, in the order the features are listed, and the pages. A clash is a programming
 * error and the hub does not start: two features declaring what there is one of (the second
 * factor, the first passkey, the consent log, the account, the applications' names), one page path, or a claims
 * scope or claim taken (`composeClaimsSources`).
 */
export function composeFeatures(features: readonly HubFeature[]): ComposedFeatures {
  const methods = [...features.filter((feature) => feature.secondFactor), ...features.filter((feature) => !feature.secondFactor)].flatMap(
    (feature) => (feature.signInMethod ? [feature.signInMethod] : [])
  )
  const before = features.flatMap((feature) => (feature.beforeErasure ? [feature.beforeErasure] : []))
  const names = onlyOne(features, 'applicationNames')
  let removers: RemoveApplications[] = []
  const declared: FeaturesDeclared = {
    signInMethods: methods.map((method) => method.pages),
    proofs: methods.map((method) => method.proof),
    secondFactor: onlyOne(features, 'secondFactor') ?? NO_SECOND_FACTOR,
    firstPasskey: onlyOne(features, 'firstPasskey'),
    ownAccount: onlyOne(features, 'ownAccount'),
    accountSections: features.flatMap((feature) => feature.accountSections ?? []),
    // The console's front page first, then the features' sections in order.
    consoleSections: features.flatMap((feature) => feature.consoleSections ?? []).sort((a, b) => Number(b.path === CONSOLE_PATH) - Number(a.path === CONSOLE_PATH)),
    claims: composeClaimsSources(features.flatMap((feature) => (feature.claims ? [feature.claims] : []))),
    datasets: features.flatMap((feature) => feature.datasets ?? []),
    async beforeErasure(userId) {
      for (const step of before) await step(userId)
    },
    consents: onlyOne(features, 'consents'),
    async removeApplications(trx, userId, now) {
      let removed = 0
      for (const remove of removers) removed += await remove(trx, userId, now)
      return removed
    },
    applicationNames: names ?? (async () => ({})),
    accountFacts: composeAccountFacts(features.flatMap((feature) => (feature.accountFacts ? [feature.accountFacts] : [])))
  }
  removers = features.flatMap((feature) => (feature.removeApplications ? [feature.removeApplications(declared)] : []))
  const pages = features.flatMap((feature) => feature.pages?.(declared) ?? [])
  const paths = new Set<string>()
  for (const { path } of pages) {
    if (paths.has(path)) throw new Error(`Page declared twice: ${path}`)
    paths.add(path)
  }
  return { features, declared, pages }
}

type OneOnly = 'secondFactor' | 'firstPasskey' | 'ownAccount' | 'consents' | 'applicationNames'

function onlyOne<Key extends OneOnly>(features: readonly HubFeature[], key: Key): HubFeature[Key] {
  const declaring = features.filter((feature) => feature[key] !== undefined)
  if (declaring.length > 1) throw new Error(`Declared by two features: ${key}`)
  return declaring[0]?.[key]
}

/**
 * Registers, after the pipeline: the kernel's routes (health, readiness, reauthentication with the
 * features' proofs, set-cookie), then each feature's routes and jobs in order, then the page shell
 * with every page.
 */
export async function registerFeatures(app: App, kernel: Kernel, { features, declared, pages }: ComposedFeatures): Promise<void> {
  const { config, db, sessions, sessionCookies, audit, now, throttle, builtin } = kernel
  await app.register(healthRoutes)
  await app.register(readinessRoute({ path: '/api/ready', checks: readinessChecks(db, kernel.redis) }))
  if (builtin) {
    // The password is the kernel's proof of who holds a session; the features add theirs.
    const { users, recentSignIn } = kernel
    await app.register(reauthenticateRoute, { users, proofs: declared.proofs, secondFactor: declared.secondFactor, throttle, recentSignIn, audit, now })
  }
  await app.register(setCookieRoute, { sessions, sessionCookies, audit, now, idTokens: kernel.idTokenVerifier, usedIdTokens: createUsedIdTokens(db), throttle })

  // The page shell, which the pages and the features' routes that answer with a page share.
  const { ownAccount } = declared
  const pageOptions: HubPagesOptions = {
    sessionOf: async (request) => {
      const session = await sessions.validate(request.cookies[AUTH_COOKIE], now())
      return session && { sessionId: session.id, userId: session.userId, email: session.email }
    },
    sessionsOf: (session) => kernel.accountSessions.list(session.userId, session.sessionId),
    applications: config.apps,
    applicationNames: config.appNames,
    oidcClientNames: declared.applicationNames,
    secureCookies: kernel.secureCookies,
    cspNonce: (reply) => reply.cspNonce.script,
    assets: kernel.pageAssets,
    // Mail written to DATA_DIR/outbox rather than sent: the pages promising one say where it went.
    mailOutbox: config.smtpUrl === undefined ? OUTBOX_COMMAND : undefined,
    roleOf: (userId) => roleOf(db, userId),
    signup: config.signup,
    // The account's pages and its ways of signing in: the built-in provider's accounts only, as their API.
    ...(ownAccount ? { ownAccount, ownSignIn: { methods: declared.signInMethods, wrongPasswordError: WRONG_CURRENT_PASSWORD } } : {}),
    pages
  }
  const shell = createPageShell(pageOptions)

  for (const feature of features) {
    await feature.routes?.(app, declared, shell)
    for (const start of feature.jobs ?? []) {
      app.addHook('onClose', start())
    }
  }

  // The browser pages: the kernel's shell and its own pages, then each feature's.
  await app.register(hubPages, pageOptions)
}
