import type { Redis } from 'ioredis'
import type { Kysely } from 'kysely'
import type { HubConfig } from '../../shared/config.js'
import { pingDatabase } from '../../shared/database/availability.js'
import type { Database } from '../../shared/database/schema.js'
import { READINESS_CHECK_TIMEOUT_MS, type ReadinessCheck } from '../../shared/http/readiness.js'
import { type App, createServer } from '../../shared/http/server.js'
import type { Logger } from '../../shared/logging.js'
import { type Accounts, activeAccountsOnly, createAccounts } from './accounts/accounts.js'
import { prepareDummyHash } from './accounts/password-hashing.js'
import { type UsersRepository, createUsersRepository } from './accounts/repository.js'
import { type AuditRequest, auditRequests } from './audit/context.js'
import { schedulePruning } from './audit/pruning.js'
import { type AuditTrail, createAuditTrail } from './audit/repository.js'
import { cookiesAreSecure } from './http/cookies.js'
import { type AccountMail, createAccountMail } from './mail/account-mail.js'
import { type MailQueue, createMailQueue } from './mail/queue.js'
import { startMailSender } from './mail/sender.js'
import { createMailTransport } from './mail/transport.js'
import { type PageAssets, loadPageAssets } from './pages/assets.js'
import { type CounterStore, createMemoryCounterStore } from './rate-limit/counter-store.js'
import { createFailoverCounterStore } from './rate-limit/failover-counter-store.js'
import { connectRedis } from './rate-limit/redis-connection.js'
import { RATE_LIMIT_KEY_PREFIX, createRedisCounterStore } from './rate-limit/redis-counter-store.js'
import { DEFAULT_RATE_LIMITS, type RateLimits, type SignInThrottle, createSignInThrottle } from './rate-limit/sign-in-throttle.js'
import { type SecurityEventOutbox, createSecurityEventOutbox } from './security-events/outbox.js'
import { startSecurityEventSender } from './security-events/sender.js'
import { loadCookieSecrets } from './security/cookie-secrets.js'
import { freshCspNonce, securityHeaders as securityHeadersFor } from './security/security-headers.js'
import { type AccountSessions, createAccountSessions } from './sessions/account-sessions.js'
import { type NewDeviceNotices, createNewDeviceNotices } from './sessions/known-devices.js'
import { type RecentSignIn, createRecentSignIn } from './sessions/recent-sign-in.js'
import { type SessionsRepository, createSessionsRepository } from './sessions/repository.js'
import { type SessionCookies, createSessionCookies } from './sessions/session-cookies.js'
import { type Sessions, createSessions } from './sessions/sessions.js'
import { type BuiltinIdTokens, createBuiltinIdTokens } from './tokens/builtin-id-tokens.js'
import type { IdTokenVerifier } from './tokens/identity.js'
import { type Keyring, openKeyring } from './tokens/keyring.js'
import { createOidcVerifier } from './tokens/oidc-id-tokens.js'

/** What the kernel is built from: the service's dependencies (`buildHubApp`'s, less what a feature alone reads). */
export interface KernelDependencies {
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
}

/**
 * The built-in provider's part of the kernel: it issues its own ID tokens and keeps its people's
 * passwords and addresses. Absent under an external provider (`config.identityProvider`).
 */
export interface BuiltinProvider {
  idTokens: BuiltinIdTokens
  /** Mail with a token in it: address verification, password reset, address change. */
  accountMail: AccountMail
  /** Every sign-in that completes a login tells the account about a device it has not seen (issue 18). */
  newDeviceNotices: NewDeviceNotices
}

/**
 * What every feature stands on (docs/architecture.md, "The feature face"): built once, before any
 * feature, and handed to each feature's function.
 */
export interface Kernel {
  config: HubConfig
  dataDir: string
  db: Kysely<Database>
  logger: Logger
  now: () => Date
  /** The keys the cookies' MACs are made with, newest first. */
  cookieKeys: string[]
  /** Whether cookies are Secure (the hub is served over https). */
  secureCookies: boolean
  keyring: Keyring
  sessionsRepository: SessionsRepository
  sessions: Sessions
  sessionCookies: SessionCookies
  /** Sudo mode for sensitive changes: a route states `config: { recentSignIn: true }` (docs/security-settings.md). */
  recentSignIn: RecentSignIn
  /** A person's sessions, listed and ended. */
  accountSessions: AccountSessions
  auditTrail: AuditTrail
  audit: AuditRequest
  users: UsersRepository
  accounts: Accounts
  /** Verifies the ID tokens `set-cookie` takes: the built-in provider's (enabled accounts only) or the external one's. */
  idTokenVerifier: IdTokenVerifier
  /** The built-in provider's accounts, or undefined under an external provider. */
  builtin: BuiltinProvider | undefined
  counterStore: CounterStore
  throttle: SignInThrottle
  /** The connection the CSP report limit counts on and readiness asks; undefined without REDIS_URL. */
  redis: Redis | undefined
  mailQueue: MailQueue
  /** Security events for the applications (docs/security-events.md), pushed in the background. */
  securityEvents: SecurityEventOutbox
  pageAssets: PageAssets
}

/**
 * Builds the kernel and the Fastify app it serves on, and starts its background rounds (the audit
 * trail's pruning, the mail sender, the security-event sender), each stopped when the app closes.
 * Registers nothing: the pipeline, the kernel's routes and the features come after.
 */
export async function buildKernel(deps: KernelDependencies): Promise<{ app: App; kernel: Kernel }> {
  const { config, dataDir, db, logger } = deps
  const now = deps.now ?? (() => new Date())
  const cookieKeys = loadCookieSecrets(config.cookieSecrets, dataDir)
  const secureCookies = cookiesAreSecure(config.publicUrl)
  const keyring = deps.keyring ?? (await openKeyring({ signingKey: config.signingKey, dataDir, now: now() }))
  const sessionsRepository = createSessionsRepository(db)
  const recentSignIn = createRecentSignIn({ repository: sessionsRepository, now })
  const sessions = createSessions({
    repository: sessionsRepository,
    cookieKeys,
    maxAgeSeconds: config.sessionMaxAgeSeconds,
    enabledAccountsOnly: config.identityProvider.kind === 'builtin',
    now
  })
  const sessionCookies = createSessionCookies({ cookieKeys, secure: secureCookies })
  const auditTrail = createAuditTrail(db)
  const audit = auditRequests(auditTrail)
  const users = createUsersRepository(db)
  const accounts = createAccounts(users)
  const identityProvider = identityProviderOf(config, keyring, accounts)

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
  const counterStore = deps.counterStore ?? (await openCounterStore(config.redisUrl, now, logger))
  if (!deps.counterStore) app.addHook('onClose', () => counterStore.close())
  const throttle = createSignInThrottle(counterStore, deps.rateLimits ?? DEFAULT_RATE_LIMITS)
  const redis = await sharedRedis(app, config.redisUrl, logger)
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

  let builtin: BuiltinProvider | undefined
  if (identityProvider.builtin) {
    // Hashed on libuv's pool while the routes are built, and done before the first request is
    // taken (see prepareDummyHash): awaited here, it held start-up up for a whole hash.
    const dummyHash = prepareDummyHash()
    app.addHook('onReady', async () => {
      await dummyHash
    })
    builtin = {
      idTokens: identityProvider.builtin,
      accountMail: createAccountMail(db, mailQueue, config.publicUrl),
      newDeviceNotices: createNewDeviceNotices({ db, mailQueue, publicUrl: config.publicUrl })
    }
  }
  const kernel: Kernel = {
    config,
    dataDir,
    db,
    logger,
    now,
    cookieKeys,
    secureCookies,
    keyring,
    sessionsRepository,
    sessions,
    sessionCookies,
    recentSignIn,
    accountSessions: createAccountSessions({ db, repository: sessionsRepository, sessions, securityEvents, now }),
    auditTrail,
    audit,
    users,
    accounts,
    idTokenVerifier: identityProvider.verifier,
    builtin,
    counterStore,
    throttle,
    redis,
    mailQueue,
    securityEvents,
    pageAssets: deps.pageAssets ?? loadPageAssets()
  }
  return { app, kernel }
}

/** What `/api/ready` asks: the database, and Redis when the hub counts on it. */
export function readinessChecks(db: Kysely<Database>, redis: Redis | undefined): Record<string, ReadinessCheck> {
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
 * The connection the CSP report limit counts on and readiness asks; a Redis outage fails its
 * commands at once, and the limit lets reports through rather than holding them.
 */
async function sharedRedis(app: App, redisUrl: string | undefined, logger: Logger): Promise<Redis | undefined> {
  if (!redisUrl) return undefined
  const redis = await connectRedis(redisUrl, logger)
  app.addHook('onClose', async () => {
    await redis.quit()
  })
  return redis
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
async function openCounterStore(redisUrl: string | undefined, now: () => Date, logger: Logger): Promise<CounterStore> {
  const local = createMemoryCounterStore(now)
  if (!redisUrl) return local
  const shared = createRedisCounterStore(await connectRedis(redisUrl, logger, { keyPrefix: RATE_LIMIT_KEY_PREFIX }))
  return createFailoverCounterStore({ shared, local, logger })
}
