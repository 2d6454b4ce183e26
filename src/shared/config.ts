import proxyAddr from '@fastify/proxy-addr'
import addressparser from 'nodemailer/lib/addressparser'
import fs from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'
import { canonicalHost } from './http/host-header.js'
import { TASKS_EXPORT_PATH } from './export/export-request.js'
import { TASKS_SECURITY_EVENTS_PATH } from './security-events/security-event-token.js'
import { type BillingConfig, readBillingConfig } from './billing-config.js'

/** Raised for a bad environment value; start-up prints it and exits 1. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string
  ) {
    super(`${variable}: ${reason}`)
    this.name = 'ConfigError'
  }
}

export type Env = Record<string, string | undefined>

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface SharedConfig {
  host: string
  dataDir: string
  /** A postgres:// URL selects PostgreSQL; without one the embedded SQLite file is used. */
  databaseUrl: string | undefined
  /** How long start-up waits for an unreachable database before giving up, in seconds. */
  databaseConnectTimeoutSeconds: number
  logLevel: LogLevel
}

export const TASKS_AUTH_MODES = ['header', 'token', 'either'] as const
export type TasksAuthMode = (typeof TASKS_AUTH_MODES)[number]

export interface TasksConfig {
  port: number
  appId: string
  permissionsEnabled: boolean
  /** How a caller proves who they are: the spec's `x-user-id`, the hub's SSO token, or either. */
  auth: TasksAuthMode
  /** The `iss` of the hub's SSO tokens. */
  hubIssuer: string
  /** Where the hub publishes its token keys (unused when the hub runs in the same process). */
  hubJwksUrl: URL
  /** The `Host` values it answers to (canonical: see `canonicalHost`); any other is refused with 421. */
  allowedHosts: string[]
  /** Where a browser reaches its pages (TASKS_PUBLIC_URL): its sign-in redirect and logout URLs are under it. */
  publicUrl: string
}

/** Where the hub says it is by default; the task manager finds the hub from it. */
export const DEFAULT_HUB_PUBLIC_URL = 'http://localhost:3001'

export const HUB_IDP_KINDS = ['builtin', 'oidc'] as const

/**
 * Who may make an account (HUB_SIGNUP, docs/administration.md, "Invitations"): anyone (`open`), only
 * the holder of an administrator's invitation (`invite`), or nobody (`closed`: accounts come from the
 * terminal, and invitations are refused too).
 */
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const
export type SignupMode = (typeof SIGNUP_MODES)[number]

/** Where ID tokens come from: the hub's own user table, or an external OpenID Connect provider. */
export type HubIdentityProvider =
  | { kind: 'builtin' }
  | { kind: 'oidc'; jwksUrl: URL; issuer: string; audience: string }

export interface HubConfig {
  port: number
  /** The hub's public URL without a trailing slash: the issuer of its tokens and one allowed origin. */
  publicUrl: string
  identityProvider: HubIdentityProvider
  /** HUB_SIGNUP: who may make an account. */
  signup: SignupMode
  /** HMAC keys for the auth and CSRF cookies: the first signs, all verify. Undefined: a key kept in DATA_DIR. */
  cookieSecrets: string[] | undefined
  /** A private JWK (or a JSON array of them, newest first) for SSO tokens. Undefined: keys kept in DATA_DIR. */
  signingKey: string | undefined
  /** Absolute session lifetime in seconds. */
  sessionMaxAgeSeconds: number
  /** Origins allowed to call /api/* with credentials, besides the hub's own. */
  allowedOrigins: string[]
  /** Registered applications: name → origin. SSO tokens are issued only for these audiences. */
  apps: Record<string, string>
  /**
   * What the pages call each registered application, by id: HUB_APPS entries' `name=`, shown as
   * written in every language; without one, the id title-cased (`tasks` is "Tasks").
   */
  appNames: Record<string, string>
  /** Where applications take security events (RFC 8935 push), by name: HUB_APPS entries' `events=`. */
  appEvents: Record<string, string>
  /** Where applications answer the hub's export requests, by name: HUB_APPS entries' `export=` (docs/privacy.md). */
  appExports: Record<string, string>
  /** Rate-limit counters live in Redis when set, else in process. */
  redisUrl: string | undefined
  /**
   * Reverse proxies whose `X-Forwarded-For` names the client: addresses, CIDR ranges or
   * `loopback`, `linklocal`, `uniquelocal`. Empty: the client is the connection's peer.
   */
  trustedProxies: string[]
  /** `Host` values it answers to besides its public URL's (canonical: see `canonicalHost`). */
  allowedHosts: string[]
  /**
   * The loopback addresses with its port (`127.0.0.1:3001`, `[::1]:3001`, `localhost:3001`) when
   * browsers reach it directly on this machine: it listens on loopback and its public URL is a
   * loopback http URL on its own port. It answers them too, sending page requests to the public URL.
   * Empty otherwise (behind a proxy, or on a public name).
   */
  loopbackHosts: string[]
  /** An smtp:// or smtps:// URL mail is sent through; undefined: mail is written to DATA_DIR/outbox. */
  smtpUrl: string | undefined
  /** The From of every mail: an address with an optional display name. */
  mailFrom: string
  /** The AES-256 key secrets are encrypted with at rest (32 bytes). Undefined: a key kept in DATA_DIR. */
  encryptionKey: Buffer | undefined
  /** Plans, grace period and Stripe (docs/billing.md). */
  billing: BillingConfig
}

export interface Config {
  shared: SharedConfig
  tasks: TasksConfig
  hub: HubConfig
}

/** Reads and validates the whole configuration once; throws ConfigError naming the variable. */
export function readConfig(env: Env = process.env): Config {
  const read = reader(env)
  // The hub's section first, so a bad HUB_PUBLIC_URL is reported under its own name.
  const tasksPort = read.port('PORT', 3000)
  const tasksAppId = read.identifier('TASKS_APP_ID', 'tasks')
  const host = read.host('HOST', '127.0.0.1')
  const tasksUrl = browsableUrl(host, tasksPort)
  // Where browsers reach the pages: the dashboard links there, and the sign-in redirects come back there.
  const tasksPublicUrl = withoutTrailingSlash(read.url('TASKS_PUBLIC_URL', tasksUrl))
  const hub = readHubConfig(read, host, `${tasksAppId}=${tasksPublicUrl};events=${tasksUrl}${TASKS_SECURITY_EVENTS_PATH};export=${tasksUrl}${TASKS_EXPORT_PATH}`)
  const hubIssuer = withoutTrailingSlash(read.url('HUB_ISSUER', hub.publicUrl))
  return {
    shared: {
      host,
      dataDir: path.resolve(read.string('DATA_DIR', './data')),
      databaseUrl: read.databaseUrl('DATABASE_URL'),
      databaseConnectTimeoutSeconds: read.positiveInteger('DATABASE_CONNECT_TIMEOUT', 60),
      logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info')
    },
    tasks: {
      port: tasksPort,
      appId: tasksAppId,
      permissionsEnabled: read.boolean('PERMISSIONS_ENABLED', false),
      auth: read.oneOf('TASKS_AUTH', TASKS_AUTH_MODES, 'header'),
      hubIssuer,
      hubJwksUrl: read.url('HUB_JWKS_URL', `${hubIssuer}/.well-known/jwks.json`),
      allowedHosts: readTasksAllowedHosts(read, host, tasksPort, new URL(tasksPublicUrl)),
      publicUrl: tasksPublicUrl
    },
    hub
  }
}

/**
 * Creates DATA_DIR if it is missing, whatever the database: the hub keeps its keys there even when
 * the tasks live in PostgreSQL. Owner-only (0700), since it holds the SQLite database and the keys.
 * A directory that cannot be made is a configuration error.
 */
export function createDataDir(shared: SharedConfig): void {
  try {
    fs.mkdirSync(shared.dataDir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new ConfigError('DATA_DIR', `cannot be created: ${(error as Error).message}`)
  }
}

/**
 * Whether DATA_DIR lets other users in. Start-up warns rather than changing a directory it did
 * not create: it may be shared on purpose (a mount point, a backup group), and DATA_DIR=/tmp must
 * never be made private. The files in it are owner-only themselves.
 */
export function dataDirOpenToOthers(shared: SharedConfig): boolean {
  return (fs.statSync(shared.dataDir).mode & 0o077) !== 0
}

// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens.
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** A URL as an issuer string: `http://localhost:3001`, never `http://localhost:3001/`. */
export function withoutTrailingSlash(url: URL): string {
  return url.href.replace(/\/+$/, '')
}

const THIRTY_DAYS_SECONDS = 30 * 24 * 60 * 60
/** HMAC keys shorter than this are guessable; 32 characters of random text carry well over 128 bits. */
const COOKIE_SECRET_MIN_LENGTH = 32

/** `defaultApps` registers the task manager where it really listens unless HUB_APPS says otherwise. */
function readHubConfig(read: ReturnType<typeof reader>, host: string, defaultApps: string): HubConfig {
  const publicUrl = withoutTrailingSlash(read.url('HUB_PUBLIC_URL', DEFAULT_HUB_PUBLIC_URL))
  const port = read.port('HUB_PORT', 3001)
  return {
    port,
    publicUrl,
    identityProvider: readIdentityProvider(read),
    signup: read.oneOf('HUB_SIGNUP', SIGNUP_MODES, 'open'),
    cookieSecrets: readCookieSecrets(read),
    signingKey: readSigningKey(read),
    sessionMaxAgeSeconds: read.positiveInteger('HUB_SESSION_MAX_AGE', THIRTY_DAYS_SECONDS),
    allowedOrigins: read.list('HUB_ALLOWED_ORIGINS').map((origin) => read.origin('HUB_ALLOWED_ORIGINS', origin)),
    ...readApps(read, defaultApps),
    redisUrl: readRedisUrl(read),
    trustedProxies: readTrustedProxies(read),
    allowedHosts: read.list('HUB_ALLOWED_HOSTS').map((entry) => read.allowedHost('HUB_ALLOWED_HOSTS', entry)),
    loopbackHosts: hubLoopbackHosts(host, port, new URL(publicUrl)),
    smtpUrl: readSmtpUrl(read),
    mailFrom: readMailFrom(read, new URL(publicUrl).hostname),
    encryptionKey: readEncryptionKey(read),
    billing: readBillingConfig(read)
  }
}

/** 32 bytes in base64 or base64url (`openssl rand -base64 32`): exactly an AES-256 key, no derivation. */
function readEncryptionKey(read: ReturnType<typeof reader>): Buffer | undefined {
  const value = read.raw('HUB_ENCRYPTION_KEY')
  if (value === undefined) return undefined
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) throw new ConfigError('HUB_ENCRYPTION_KEY', 'must be 32 random bytes in base64 (openssl rand -base64 32)')
  return Buffer.from(value.replace(/\+/g, '-').replace(/\//g, '_').replace(/=$/, ''), 'base64url')
}

/** nodemailer reads the rest (credentials, port, `?` options); a path or fragment would be a typo. */
function readSmtpUrl(read: ReturnType<typeof reader>): string | undefined {
  const value = read.raw('HUB_SMTP_URL')
  if (value === undefined) return undefined
  const url = URL.parse(value)
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '' || !['', '/'].includes(url.pathname) || url.hash) {
    throw new ConfigError('HUB_SMTP_URL', 'must be an smtp:// or smtps:// URL (smtp://user:password@host:port)')
  }
  return value
}

/** One address, with or without a display name, parsed as nodemailer will parse it. */
function readMailFrom(read: ReturnType<typeof reader>, publicHost: string): string {
  const value = read.string('HUB_MAIL_FROM', `Hearth <no-reply@${publicHost}>`)
  const parsed = addressparser(value)
  const [only] = parsed
  if (/[\r\n]/.test(value) || parsed.length !== 1 || !only || 'group' in only || !/^[^\s@<>]+@[^\s@<>]+$/.test(only.address)) {
    throw new ConfigError('HUB_MAIL_FROM', `must be one address with an optional display name, as "Hearth <no-reply@example.org>", got "${value}"`)
  }
  return value
}

function readIdentityProvider(read: ReturnType<typeof reader>): HubIdentityProvider {
  if (read.oneOf('HUB_IDP', HUB_IDP_KINDS, 'builtin') === 'builtin') return { kind: 'builtin' }
  const required = (name: string): string => {
    const value = read.raw(name)
    if (value === undefined) throw new ConfigError(name, 'is required when HUB_IDP is oidc')
    return value
  }
  return {
    kind: 'oidc',
    jwksUrl: read.url('HUB_IDP_JWKS_URL', required('HUB_IDP_JWKS_URL')),
    issuer: required('HUB_IDP_ISSUER'),
    audience: required('HUB_IDP_AUDIENCE')
  }
}

function readCookieSecrets(read: ReturnType<typeof reader>): string[] | undefined {
  const secrets = read.list('HUB_COOKIE_SECRET')
  if (secrets.length === 0) return undefined
  if (secrets.some((secret) => secret.length < COOKIE_SECRET_MIN_LENGTH)) {
    throw new ConfigError('HUB_COOKIE_SECRET', `each secret must be at least ${COOKIE_SECRET_MIN_LENGTH} characters`)
  }
  return secrets
}

function readSigningKey(read: ReturnType<typeof reader>): string | undefined {
  const value = read.raw('HUB_SIGNING_KEY')
  if (value === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    throw new ConfigError('HUB_SIGNING_KEY', 'must be a private JWK in JSON (or a JSON array of them)')
  }
  const keys = Array.isArray(parsed) ? parsed : [parsed]
  const isPrivateJwk = (key: unknown) => typeof key === 'object' && key !== null && 'kty' in key && 'd' in key
  if (keys.length === 0 || !keys.every(isPrivateJwk)) {
    throw new ConfigError('HUB_SIGNING_KEY', 'must be a private JWK in JSON (or a JSON array of them)')
  }
  return value
}

/**
 * `name=origin` entries, each optionally followed by `;events=URL`, the application's endpoint for
 * security events (docs/security-events.md), `;export=URL`, where it answers export requests
 * (docs/privacy.md), and `;name=Display name`, what the pages call it.
 */
function readApps(read: ReturnType<typeof reader>, defaultApps: string): Pick<HubConfig, 'apps' | 'appNames' | 'appEvents' | 'appExports'> {
  const apps: Record<string, string> = {}
  const appNames: Record<string, string> = {}
  const endpoints: Record<AppEndpointKey, Record<string, string>> = { events: {}, export: {} }
  for (const entry of read.list('HUB_APPS', defaultApps)) {
    const [app = '', ...options] = entry.split(';')
    const [rawName = '', url = ''] = app.split(/=(.*)/s, 2)
    const name = rawName.trim()
    if (!/^[a-z][a-z0-9_-]{0,63}$/.test(name)) {
      throw new ConfigError('HUB_APPS', `each entry must be name=url with a lowercase name, got "${entry}"`)
    }
    apps[name] = read.origin('HUB_APPS', url.trim())
    for (const option of options) {
      const [rawKey = '', value = ''] = option.split(/=(.*)/s, 2)
      const key = rawKey.trim()
      const byApp = key === 'name' ? appNames : isAppEndpointKey(key) ? endpoints[key] : undefined
      if (!byApp || Object.hasOwn(byApp, name)) {
        throw new ConfigError('HUB_APPS', `after an application's url only one ";events=URL", one ";export=URL" and one ";name=display name" may follow, got "${entry}"`)
      }
      byApp[name] = key === 'name' ? appDisplayName(value.trim(), entry) : appEndpoint(key, value.trim(), entry)
    }
    appNames[name] ??= titleCased(name)
  }
  return { apps, appNames, appEvents: endpoints.events, appExports: endpoints.export }
}

const APP_NAME_MAX_LENGTH = 64

/** Text for people: not empty, not long, nothing invisible that could make one name look like another. */
function appDisplayName(value: string, entry: string): string {
  const length = [...value].length
  if (length === 0 || length > APP_NAME_MAX_LENGTH || /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(value)) {
    throw new ConfigError('HUB_APPS', `name must be 1 to ${APP_NAME_MAX_LENGTH} visible characters, got "${entry}"`)
  }
  return value.normalize('NFC')
}

/** `tasks` is "Tasks", `family-notes` "Family Notes". */
function titleCased(id: string): string {
  return id
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ')
}

const APP_ENDPOINT_KEYS = ['events', 'export'] as const
type AppEndpointKey = (typeof APP_ENDPOINT_KEYS)[number]
const isAppEndpointKey = (key: string): key is AppEndpointKey => (APP_ENDPOINT_KEYS as readonly string[]).includes(key)

function appEndpoint(key: string, value: string, entry: string): string {
  const url = URL.parse(value)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.hash) {
    throw new ConfigError('HUB_APPS', `${key} must be an http(s) URL, got "${entry}"`)
  }
  return url.href
}

/** Checked with the parser Fastify itself compiles the list with, so start-up names a bad entry. */
function readTrustedProxies(read: ReturnType<typeof reader>): string[] {
  const proxies = read.list('HUB_TRUSTED_PROXIES')
  try {
    proxyAddr.compile(proxies)
  } catch (error) {
    throw new ConfigError(
      'HUB_TRUSTED_PROXIES',
      `must list IP addresses, CIDR ranges, loopback, linklocal or uniquelocal (${(error as Error).message})`
    )
  }
  return proxies
}

/** `localhost` or a loopback address (IPv6 without brackets). */
function isLoopback(name: string): boolean {
  return name === 'localhost' || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'))
}

/** HOST values whose socket takes connections to the loopback interface: a loopback name, or any address. */
function listensOnLoopback(host: string): boolean {
  return isLoopback(host) || host === '0.0.0.0' || host === '::'
}

/**
 * The loopback names a browser on this machine may type for a hub it reaches directly: the same
 * names the task manager answers by default. A rebound page's requests carry its own name as Host,
 * never these, so answering them keeps the DNS-rebinding check whole.
 */
function hubLoopbackHosts(host: string, port: number, publicUrl: URL): string[] {
  const publicPort = Number(publicUrl.port || 80)
  const direct = publicUrl.protocol === 'http:' && publicPort === port && isLoopback(publicUrl.hostname.replace(/^\[|\]$/g, ''))
  if (!direct || !listensOnLoopback(host)) return []
  const names = ['localhost', '127.0.0.1', '[::1]', ...(isIP(host) === 4 && host.startsWith('127.') ? [host] : [])]
  return [...new Set(names.map((name) => canonicalHost(`${name}:${port}`) ?? name))].filter((alias) => alias !== publicUrl.host)
}

/**
 * By default the loopback names and HOST, each with PORT: the names a client on this machine uses;
 * and TASKS_PUBLIC_URL's host, which a reverse proxy forwarding the browser's Host sends.
 */
function readTasksAllowedHosts(read: ReturnType<typeof reader>, host: string, port: number, publicUrl: URL): string[] {
  const loopback = ['localhost', '127.0.0.1', '[::1]', isIP(host) === 6 ? `[${host}]` : host].map((name) => `${name}:${port}`)
  const defaults = [...loopback, publicUrl.host]
  const entries = read.list('TASKS_ALLOWED_HOSTS', defaults.join(','))
  return [...new Set(entries.map((entry) => read.allowedHost('TASKS_ALLOWED_HOSTS', entry)))]
}

function readRedisUrl(read: ReturnType<typeof reader>): string | undefined {
  const value = read.raw('REDIS_URL')
  if (value !== undefined && !/^rediss?:\/\//.test(value)) throw new ConfigError('REDIS_URL', 'must be a redis:// URL')
  return value
}

/** Typed accessors over the environment; each names its variable when the value is bad. */
export function reader(env: Env) {
  const raw = (name: string): string | undefined => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }
  return {
    raw,
    string(name: string, fallback: string): string {
      return raw(name) ?? fallback
    },
    /** An address to listen on: an IPv4 or IPv6 address or a host name. */
    host(name: string, fallback: string): string {
      const value = raw(name) ?? fallback
      if (isIP(value) === 0 && !HOSTNAME.test(value)) throw new ConfigError(name, `must be a host name or IP address, got "${value}"`)
      return value
    },
    port(name: string, fallback: number): number {
      const value = raw(name)
      if (value === undefined) return fallback
      const port = Number(value)
      if (!/^\d+$/.test(value) || port < 0 || port > 65535) {
        throw new ConfigError(name, `must be a port number from 0 to 65535, got "${value}"`)
      }
      return port
    },
    positiveInteger(name: string, fallback: number): number {
      const value = raw(name)
      if (value === undefined) return fallback
      if (!/^[1-9]\d*$/.test(value)) throw new ConfigError(name, `must be a positive whole number, got "${value}"`)
      return Number(value)
    },
    boolean(name: string, fallback: boolean): boolean {
      const value = raw(name)?.toLowerCase()
      if (value === undefined) return fallback
      if (value === 'true' || value === '1') return true
      if (value === 'false' || value === '0') return false
      throw new ConfigError(name, `must be true or false, got "${value}"`)
    },
    oneOf<const T extends readonly string[]>(name: string, allowed: T, fallback: T[number]): T[number] {
      const value = raw(name)
      if (value === undefined) return fallback
      if (!allowed.includes(value)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${value}"`)
      return value
    },
    identifier(name: string, fallback: string): string {
      const value = raw(name) ?? fallback
      if (!/^[a-z][a-z0-9_-]{0,63}$/.test(value)) {
        throw new ConfigError(name, `must be lowercase letters, digits, "-" or "_", starting with a letter, got "${value}"`)
      }
      return value
    },
    url(name: string, fallback: string): URL {
      const value = raw(name) ?? fallback
      try {
        const url = new URL(value)
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http')
        return url
      } catch {
        throw new ConfigError(name, `must be an http(s) URL, got "${value}"`)
      }
    },
    /** A comma-separated list; empty entries dropped. */
    list(name: string, fallback = ''): string[] {
      return (raw(name) ?? fallback)
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
    },
    /** An http(s) origin (scheme, host, port) given on its own or as a URL with nothing after the host. */
    origin(name: string, value: string): string {
      let url: URL
      try {
        url = new URL(value)
      } catch {
        throw new ConfigError(name, `must hold http(s) origins, got "${value}"`)
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
        throw new ConfigError(name, `must hold http(s) origins, got "${value}"`)
      }
      return url.origin
    },
    /** A `Host` a service answers to: a name or address with an optional port, in canonical form. */
    allowedHost(name: string, value: string): string {
      const host = canonicalHost(value)
      if (host === undefined) throw new ConfigError(name, `must hold host names or addresses with an optional port, got "${value}"`)
      return host
    },
    databaseUrl(name: string): string | undefined {
      const value = raw(name)
      if (value === undefined) return undefined
      if (!/^postgres(ql)?:\/\//.test(value)) throw new ConfigError(name, 'must be a postgres:// URL')
      return value
    }
  }
}

/** Where a browser reaches a service listening on host:port: loopback and any-address binds are localhost. */
function browsableUrl(host: string, port: number): string {
  if (['127.0.0.1', '::1', '0.0.0.0', '::', 'localhost'].includes(host)) return `http://localhost:${port}`
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}
