import cookie from '@fastify/cookie'
import type { FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import type { HubConfig } from '../shared/config.js'
import type { Database } from '../shared/database/schema.js'
import { pingDatabase } from '../shared/database/availability.js'
import { allowedHosts } from '../shared/http/allowed-hosts.js'
import { READINESS_CHECK_TIMEOUT_MS, type ReadinessCheck, readinessRoute } from '../shared/http/readiness.js'
import { type App, createServer } from '../shared/http/server.js'
import type { Logger } from '../shared/logging.js'
import { AUTH_COOKIE, cookiesAreSecure } from './kernel/http/cookies.js'
import { csrf } from './kernel/pipeline/csrf.js'
import { loopbackHosts } from './kernel/pipeline/loopback-hosts.js'
import { origins } from './kernel/pipeline/origins.js'
import { securityHeaders } from './kernel/pipeline/security-headers.js'
import { sessionOf, sessionStage } from './kernel/pipeline/session.js'
import { createCspReportRepository } from './features/csp/repository.js'
import { cspReportRoutes } from './features/csp/routes.js'
import { type CounterStore, createMemoryCounterStore } from './kernel/rate-limit/counter-store.js'
import { createFailoverCounterStore } from './kernel/rate-limit/failover-counter-store.js'
import { connectRedis } from './kernel/rate-limit/redis-connection.js'
import { RATE_LIMIT_KEY_PREFIX, createRedisCounterStore } from './kernel/rate-limit/redis-counter-store.js'
import { DEFAULT_RATE_LIMITS, type RateLimits, createSignInThrottle } from './kernel/rate-limit/sign-in-throttle.js'
import { createAccountMail } from './kernel/mail/account-mail.js'
import { createSubscriptions } from './features/billing/subscriptions.js'
import { billingClaims } from './features/billing/claims.js'
import { cancelStripeSubscriptionOf } from './features/billing/cancel-on-deletion.js'
import { createStripeClient } from './features/billing/stripe-client.js'
import { noPaymentRoutes, stripeBillingRoutes } from './features/billing/stripe-routes.js'
import { stripeWebhookRoutes } from './features/billing/webhook.js'
import { scheduleWebhookEventPruning } from './features/billing/webhook-events-pruning.js'
import { billingDataset } from './features/billing/export.js'
import { createInvoices } from './features/billing/invoices.js'
import { billingOverview } from './features/billing/overview.js'
import { createPlans } from './features/billing/plans.js'
import { billingRoutes } from './features/billing/routes.js'
import { emailVerificationRoutes } from './features/account/email-verification.js'
import { passwordResetRoutes } from './features/account/password-reset.js'
import { createOwnAccountRepository } from './features/account/repository.js'
import { ownAccountRoutes } from './features/account/routes.js'
import { reauthenticateRoute } from './kernel/sessions/reauthenticate.js'
import { createSecretBox, loadEncryptionKey } from './kernel/security/secret-box.js'
import { createRecentSignIn } from './kernel/sessions/recent-sign-in.js'
import { twoStepDataset } from './features/two-step/export.js'
import { createLoginChallenges } from './features/two-step/login-challenges.js'
import { createTwoStepRepository } from './features/two-step/repository.js'
import { twoStepRoutes } from './features/two-step/routes.js'
import { secondFactorRoute } from './features/two-step/second-factor-route.js'
import { createSecondFactorGate } from './features/two-step/second-factor.js'
import { codeProof } from './features/two-step/proof.js'
import { createTwoStep } from './features/two-step/two-step.js'
import { createPasskeyAssertions } from './features/passkeys/assertions.js'
import { passkeyProof } from './features/passkeys/proof.js'
import { passkeysDataset } from './features/passkeys/export.js'
import { createNewDeviceNotices } from './kernel/sessions/known-devices.js'
import { createPasskeyRepository } from './features/passkeys/repository.js'
import { passkeyRoutes } from './features/passkeys/routes.js'
import { accountSessionRoutes } from './features/sign-in/account-sessions.js'
import { accountRoutes } from './features/sign-in/accounts.js'
import { healthRoutes } from './kernel/http/health.js'
import { refreshRoutes } from './features/sign-in/refresh.js'
import { setCookieRoute } from './kernel/sessions/sign-in.js'
import { ssoRoutes } from './features/sso/routes.js'
import { createGrantsRepository } from '../shared/access-grants/repository.js'
import { ACTIVITY_READINGS } from './activity.js'
import { createActivityLog } from './features/activity/activity.js'
import { activityRoutes } from './features/activity/routes.js'
import { auditRequests } from './kernel/audit/context.js'
import { schedulePruning } from './kernel/audit/pruning.js'
import { createMailQueue } from './kernel/mail/queue.js'
import { startMailSender } from './kernel/mail/sender.js'
import { OUTBOX_COMMAND, createMailTransport } from './kernel/mail/transport.js'
import { createAuditTrail } from './kernel/audit/repository.js'
import { exportAllowance } from './features/export/allowance.js'
import { applicationExports } from './features/export/application-exports.js'
import { hubDatasets } from './features/export/hub-datasets.js'
import { trailDatasets } from './features/export/trail-datasets.js'
import { exportRoutes } from './features/export/routes.js'
import { type PageAssets, loadPageAssets } from './kernel/pages/assets.js'
import { hubPages } from './kernel/pages/plugin.js'
import { accountPages } from './features/account/pages.js'
import { WRONG_CURRENT_PASSWORD } from './kernel/sessions/current-password.js'
import { activityPages } from './features/activity/pages.js'
import { billingPages } from './features/billing/pages.js'
import { exportPages } from './features/export/pages.js'
import { connectedApplicationsSection } from './features/oidc/applications-section.js'
import { passkeySignInPages } from './features/passkeys/pages.js'
import { privacyPages } from './features/privacy/pages.js'
import { twoStepSignInPages } from './features/two-step/pages.js'
import { createOidcClients } from './features/oidc/clients.js'
import { createConnectedApplications, removeApplicationsOfEarlierHolder } from './features/oidc/connected-applications.js'
import { builtinProviderAccounts, externalProviderAccounts } from './features/oidc/provider-accounts.js'
import { scheduleProviderRecordPruning } from './features/oidc/provider-adapter.js'
import { oidcProviderRoutes } from './features/oidc/routes.js'
import { privacyDatasets } from './features/privacy/export.js'
import { withdrawGrantedConsents } from './features/privacy/repository.js'
import { createPrivacyService } from './features/privacy/service.js'
import { privacyRoutes } from './features/privacy/routes.js'
import { loadCookieSecrets } from './kernel/security/cookie-secrets.js'
import { freshCspNonce, securityHeaders as securityHeadersFor } from './kernel/security/security-headers.js'
import { createAccountSessions } from './kernel/sessions/account-sessions.js'
import { accountDeletionRoutes } from './features/deletion/routes.js'
import { ERASURE_STEPS } from './erasure.js'
import { createSecurityEventOutbox } from './kernel/security-events/outbox.js'
import { startSecurityEventSender } from './kernel/security-events/sender.js'
import { createSessionsRepository } from './kernel/sessions/repository.js'
import { createSessionCookies } from './kernel/sessions/session-cookies.js'
import { createSessions } from './kernel/sessions/sessions.js'
import { type BuiltinIdTokens, createBuiltinIdTokens } from './kernel/tokens/builtin-id-tokens.js'
import type { IdTokenVerifier } from './kernel/tokens/identity.js'
import { type Keyring, openKeyring } from './kernel/tokens/keyring.js'
import { createOidcVerifier } from './kernel/tokens/oidc-id-tokens.js'
import { accountSsoIdentities, identityOfSession } from './kernel/tokens/sso-identity.js'
import { composeClaimsSources } from './kernel/tokens/claims.js'
import { createUsedIdTokens } from './kernel/tokens/used-id-tokens.js'
import { type Accounts, activeAccountsOnly, createAccounts } from './kernel/accounts/accounts.js'
import { prepareDummyHash } from './kernel/accounts/password-hashing.js'
import { createUsersRepository } from './kernel/accounts/repository.js'

export interface HubAppDependencies {
  config: HubConfig
  /** Where generated secrets (cookie key, signing keys) live unless the configuration supplies them. */
  dataDir: string
  db: Kysely<Database>
  logger: Logger
  /** The clock every expiry is measured against (tests move it). */
  now?: () => Date
  /** Rate-limit counters; by default Redis when REDIS_URL is set, else in process. */
  counterStore?: CounterStore
  rateLimits?: RateLimits
  keyring?: Keyring
  /** The pages' built script and stylesheet; by default read from dist/public. */
  pageAssets?: PageAssets
  /** How often the audit trail is pruned by retention; hourly by default. */
  auditPruningIntervalMs?: number
  /** How often queued mail is looked at, and the first retry delay; 5 s by default. */
  mailSenderIntervalMs?: number
  /** How often undelivered security events are looked at, and the first retry delay; 5 s by default. */
  securityEventSenderIntervalMs?: number
  /** How long an export waits for each application; 5 s by default. */
  applicationExportTimeoutMs?: number
}

/**
 * The identity hub. Every request passes, in this order: security headers, the Host check, the
 * origin check (and CORS), the CSRF check, then the session check on protected paths; then the route.
 */
export async function buildHubApp(deps: HubAppDependencies): Promise<App> {
  const { config, dataDir, db, logger } = deps
  const now = deps.now ?? (() => new Date())
  const cookieKeys = loadCookieSecrets(config.cookieSecrets, dataDir)
  const secure = cookiesAreSecure(config.publicUrl)
  const keyring = deps.keyring ?? (await openKeyring({ signingKey: config.signingKey, dataDir, now: now() }))
  const sessionsRepository = createSessionsRepository(db)
  // Sudo mode for sensitive changes: `preHandler: recentSignIn.require` (docs/security-settings.md).
  const recentSignIn = createRecentSignIn({ repository: sessionsRepository, now })
  const twoStepRepository = createTwoStepRepository(db)
  const sessions = createSessions({
    repository: sessionsRepository,
    cookieKeys,
    maxAgeSeconds: config.sessionMaxAgeSeconds,
    enabledAccountsOnly: config.identityProvider.kind === 'builtin',
    now
  })
  const sessionCookies = createSessionCookies({ cookieKeys, secure })
  const auditTrail = createAuditTrail(db)
  const audit = auditRequests(auditTrail)
  const signInDeps = { sessions, sessionCookies, audit, now }
  const users = createUsersRepository(db)
  const accounts = createAccounts(users)
  const identityProvider = identityProviderOf(config, keyring, accounts)
  const passkeys = createPasskeyRepository(db)
  const subscriptions = createSubscriptions(db, config.billing.graceDays)
  // The claims features add to SSO tokens and OpenID Connect answers (docs/architecture.md), composed once.
  const addedClaims = composeClaimsSources([billingClaims(subscriptions)])
  // Payments through Stripe when the operator plugs it in (STRIPE_SECRET_KEY, docs/billing.md).
  const stripeConfig = config.billing.stripe
  const payments = stripeConfig && { stripe: createStripeClient(stripeConfig), webhookSecret: stripeConfig.webhookSecret }
  const plans = createPlans(db)
  // What `GET /api/billing` and the billing page show: the same rule as the tokens' claims.
  const billingOverviewOf = billingOverview(subscriptions, createInvoices(db), now)

  const app = await createServer({
    logger,
    openApi: {
      title: 'Hearth identity hub',
      description: 'Sign-in, sessions and SSO tokens for the Hearth family of applications.',
      version: '1.0.0',
      // The hub's strict policy (frame-ancestors 'none', base-uri 'none', reports) covers /docs too.
      docsCsp: 'app'
    },
    // A 5xx tells the client nothing but that it failed; the log has the rest.
    routeFailureMessages: false,
    // The per-IP limits and the audit trail need the browser's address, not the proxy's.
    trustedProxies: config.trustedProxies,
    malformedRequestHeaders: () => securityHeadersFor(freshCspNonce())
  })
  const counterStore = deps.counterStore ?? openCounterStore(config.redisUrl, now, logger)
  if (!deps.counterStore) app.addHook('onClose', () => counterStore.close())
  const throttle = createSignInThrottle(counterStore, deps.rateLimits ?? DEFAULT_RATE_LIMITS)
  const redis = sharedRedis(app, config.redisUrl, logger)
  const stopPruning = schedulePruning(auditTrail, logger, deps.auditPruningIntervalMs)
  app.addHook('onClose', stopPruning)
  const mailQueue = createMailQueue(db)
  const stopMailSender = startMailSender({
    queue: mailQueue,
    transport: createMailTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir }),
    logger,
    now,
    intervalMs: deps.mailSenderIntervalMs
  })
  app.addHook('onClose', stopMailSender)
  // Security events for the applications (docs/security-events.md), pushed in the background.
  const securityEvents = createSecurityEventOutbox(db, Object.keys(config.appEvents))
  const stopSecurityEventSender = startSecurityEventSender({
    outbox: securityEvents,
    keyring,
    issuer: config.publicUrl,
    endpoints: config.appEvents,
    logger,
    now,
    intervalMs: deps.securityEventSenderIntervalMs
  })
  app.addHook('onClose', stopSecurityEventSender)

  // External plugins and the request pipeline, in the order a request meets them.
  await app.register(cookie)
  await app.register(securityHeaders)
  await app.register(allowedHosts, { hosts: [new URL(config.publicUrl).host, ...config.allowedHosts, ...config.loopbackHosts] })
  await app.register(loopbackHosts, { hosts: config.loopbackHosts, publicUrl: config.publicUrl })
  await app.register(origins, { allowedOrigins: [new URL(config.publicUrl).origin, ...config.allowedOrigins] })
  await app.register(csrf, {
    cookieKeys,
    secureCookies: secure,
    // Where the session stage has already checked the cookie's MAC, its session is the cookie's.
    sessionIdOf: (request) => request.session?.id ?? sessions.claimsOf(request.cookies[AUTH_COOKIE], now())?.sessionId ?? null
  })
  await app.register(sessionStage, { sessions, now })

  // Routes.
  await app.register(healthRoutes)
  await app.register(readinessRoute({ path: '/api/ready', checks: readinessChecks(db, redis) }))
  if (identityProvider.builtin) {
    await prepareDummyHash()
    const accountMail = createAccountMail(db, mailQueue, config.publicUrl)
    // Two-step sign-in (issue 18); its secrets sealed with HUB_ENCRYPTION_KEY or a key in DATA_DIR.
    const secretBox = createSecretBox(loadEncryptionKey(config.encryptionKey, dataDir))
    const twoStep = createTwoStep({ db, repository: twoStepRepository, secretBox, mailQueue, publicUrl: config.publicUrl })
    const challenges = createLoginChallenges(db)
    // Every sign-in that completes a login tells the account about a device it has not seen (issue 18).
    const newDeviceNotices = createNewDeviceNotices({ db, mailQueue, publicUrl: config.publicUrl })
    // What two-step sign-in adds after the password, at login and at reauthentication.
    const secondFactor = createSecondFactorGate({ twoStep, challenges, users })
    await app.register(accountRoutes, {
      secondFactor,
      ...signInDeps,
      accounts,
      idTokens: identityProvider.builtin,
      newDeviceNotices,
      throttle,
      accountMail,
      signupOpen: config.signupOpen
    })
    // Recovery and verification (issue 16): the provider owns passwords and addresses otherwise.
    await app.register(passwordResetRoutes, {
      db,
      accountMail,
      sessions,
      securityEvents,
      throttle,
      audit,
      // A first proof of the address removes the applications its earlier holder let sign in.
      removeApplications: (trx, userId, at) => removeApplicationsOfEarlierHolder(trx, userId, at, withdrawGrantedConsents),
      now
    })
    await app.register(emailVerificationRoutes, { db, accountMail, throttle, audit, now })
    await app.register(secondFactorRoute, { ...signInDeps, idTokens: identityProvider.builtin, newDeviceNotices, twoStep, challenges, users, throttle })
    const passkeyAssertions = createPasskeyAssertions({ db, passkeys, publicUrl: config.publicUrl, now })
    // The password is the kernel's proof of who holds a session; the features add a code and a passkey.
    const proofs = [codeProof(twoStep, now), passkeyProof(passkeyAssertions)]
    await app.register(reauthenticateRoute, { users, proofs, secondFactor, throttle, recentSignIn, audit, now })
    await app.register(twoStepRoutes, { twoStep, users, recentSignIn, audit, now })
    await app.register(passkeyRoutes, {
      ...signInDeps,
      db,
      passkeys,
      assertions: passkeyAssertions,
      idTokens: identityProvider.builtin,
      newDeviceNotices,
      throttle,
      recentSignIn,
      users,
      mailQueue,
      publicUrl: config.publicUrl
    })
    await app.register(ownAccountRoutes, {
      db,
      ownAccount: createOwnAccountRepository(db),
      users,
      sessions,
      throttle,
      mailQueue,
      mailTokens: accountMail.tokens,
      recentSignIn,
      audit,
      publicUrl: config.publicUrl,
      now
    })
  }
  await app.register(setCookieRoute, { ...signInDeps, idTokens: identityProvider.verifier, usedIdTokens: createUsedIdTokens(db), throttle })
  await app.register(refreshRoutes, signInDeps)
  const accountSessions = createAccountSessions({ db, repository: sessionsRepository, sessions, securityEvents, now })
  await app.register(accountSessionRoutes, { accountSessions, sessionCookies, audit })
  // The hub's own records, so served whichever provider signs people in (docs/activity.md).
  const activity = createActivityLog(db, now, ACTIVITY_READINGS)
  await app.register(activityRoutes, { activity })
  if (payments) {
    await app.register(stripeBillingRoutes, { stripe: payments.stripe, db, publicUrl: config.publicUrl, audit, now })
    await app.register(stripeWebhookRoutes, { ...payments, db, publicUrl: config.publicUrl, now })
    app.addHook('onClose', scheduleWebhookEventPruning(db, now, logger))
  } else {
    await app.register(noPaymentRoutes)
  }
  // The hub's own records too (docs/billing.md): whichever provider signs people in, they may pay.
  await app.register(billingRoutes, { overviewOf: billingOverviewOf })
  await app.register(accountDeletionRoutes, {
    db,
    outbox: securityEvents,
    publicUrl: config.publicUrl,
    steps: ERASURE_STEPS,
    builtin: identityProvider.builtin ? { users, throttle, recentSignIn } : undefined,
    sessions,
    sessionsRepository,
    sessionCookies,
    beforeErasure: (userId) => cancelStripeSubscriptionOf(db, payments?.stripe, userId),
    now
  })
  await app.register(ssoRoutes, {
    keyring,
    issuer: config.publicUrl,
    apps: config.apps,
    identityOf: identityProvider.builtin ? accountSsoIdentities(db) : identityOfSession,
    addedClaims,
    audit,
    now
  })
  await app.register(cspReportRoutes, { reports: createCspReportRepository(db), redis })

  // Privacy, consent and export (issue 4): behind the session stage by path, the user is the session's.
  const userOf = (request: FastifyRequest) => sessionOf(request).userId
  const privacy = createPrivacyService(db, Object.keys(config.apps))
  // What each feature keeps about a person, in the export's order (docs/privacy.md, "Export").
  const exportDatasets = [
    ...hubDatasets(db),
    passkeysDataset(passkeys),
    ...(identityProvider.builtin ? [twoStepDataset(twoStepRepository)] : []),
    billingDataset(db),
    ...privacyDatasets(db, privacy),
    ...trailDatasets(db, createGrantsRepository(db))
  ]
  await app.register(privacyRoutes, { privacy, userOf })
  await app.register(exportRoutes, {
    datasets: exportDatasets,
    audit: auditTrail,
    allowExport: exportAllowance(counterStore),
    applicationExports: applicationExports({ endpoints: config.appExports, keyring, issuer: config.publicUrl, logger, now, timeoutMs: deps.applicationExportTimeoutMs }),
    userOf
  })

  // The OpenID Connect provider (issue 19, docs/oidc.md): any application signs in with the hub.
  const pageAssets = deps.pageAssets ?? loadPageAssets()
  const oidcClients = createOidcClients(db)
  const connectedApplications = createConnectedApplications(db, now)
  await app.register(oidcProviderRoutes, {
    issuer: config.publicUrl,
    db,
    clients: oidcClients,
    connectedApplications,
    keyring,
    cookieKeys,
    accountOf: identityProvider.builtin ? builtinProviderAccounts(db) : externalProviderAccounts(db, now),
    addedClaims,
    sessions,
    privacy,
    audit,
    assets: pageAssets,
    accountPages: identityProvider.builtin !== undefined,
    behindProxy: config.trustedProxies.length > 0,
    now
  })
  app.addHook('onClose', scheduleProviderRecordPruning(db, now, logger))

  // The browser pages, on the same session rows and the same privacy service: the kernel's shell
  // and its own pages, then each feature's (docs/architecture.md).
  const ownAccount = identityProvider.builtin && createOwnAccountRepository(db)
  await app.register(hubPages, {
    sessionOf: async (request) => {
      const session = await sessions.validate(request.cookies[AUTH_COOKIE], now())
      return session && { sessionId: session.id, userId: session.userId, email: session.email }
    },
    sessionsOf: (session) => accountSessions.list(session.userId, session.sessionId),
    applications: config.apps,
    applicationNames: config.appNames,
    oidcClientNames: async () => Object.fromEntries((await oidcClients.list()).map((client) => [client.id, client.name])),
    secureCookies: secure,
    cspNonce: (reply) => reply.cspNonce.script,
    assets: pageAssets,
    // Mail written to DATA_DIR/outbox rather than sent: the pages promising one say where it went.
    mailOutbox: config.smtpUrl === undefined ? OUTBOX_COMMAND : undefined,
    // Account and recovery pages, two-step sign-in and passkeys for the built-in provider's accounts only, as their API.
    ...(ownAccount
      ? { ownAccount, ownSignIn: { methods: [twoStepSignInPages(twoStepRepository), passkeySignInPages(passkeys)], wrongPasswordError: WRONG_CURRENT_PASSWORD } }
      : {}),
    pages: [
      ...privacyPages(privacy),
      ...activityPages(activity),
      ...exportPages({ datasets: exportDatasets, applications: Object.keys(config.appExports) }),
      // Payment buttons only when Stripe takes payments; without it the page shows the plan set by hand.
      ...billingPages({ overviewOf: billingOverviewOf, plans, payments: payments !== undefined }),
      ...(ownAccount ? accountPages({ ownAccount, sections: [connectedApplicationsSection(connectedApplications)] }) : [])
    ]
  })
  return app
}

/**
 * The connection the CSP report limit counts on and readiness asks; a Redis outage fails its
 * commands at once, and the limit lets reports through rather than holding them.
 */
function sharedRedis(app: App, redisUrl: string | undefined, logger: Logger): Redis | undefined {
  if (!redisUrl) return undefined
  const redis = connectRedis(redisUrl, logger)
  app.addHook('onClose', async () => {
    await redis.quit()
  })
  return redis
}

function readinessChecks(db: Kysely<Database>, redis: Redis | undefined): Record<string, ReadinessCheck> {
  const database = () => pingDatabase(db, READINESS_CHECK_TIMEOUT_MS)
  if (!redis) return { database }
  return {
    database,
    redis: async () => {
      await redis.ping()
    }
  }
}

/**
 * The built-in provider issues and verifies its own ID tokens, and accepts them only for accounts
 * that are still enabled; an external provider's tokens are only verified.
 */
function identityProviderOf(config: HubConfig, keyring: Keyring, accounts: Accounts): { verifier: IdTokenVerifier; builtin?: BuiltinIdTokens } {
  const idp = config.identityProvider
  if (idp.kind === 'oidc') return { verifier: createOidcVerifier(idp) }
  const builtin = createBuiltinIdTokens(keyring, config.publicUrl)
  return { verifier: activeAccountsOnly(builtin.verifier, accounts), builtin }
}

/** In process, or in Redis with this process's counters standing in while Redis is unreachable. */
function openCounterStore(redisUrl: string | undefined, now: () => Date, logger: Logger): CounterStore {
  const local = createMemoryCounterStore(now)
  if (!redisUrl) return local
  const shared = createRedisCounterStore(connectRedis(redisUrl, logger, { keyPrefix: RATE_LIMIT_KEY_PREFIX }))
  return createFailoverCounterStore({ shared, local, logger })
}
