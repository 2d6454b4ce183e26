import path from 'node:path'

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
}

/** The hub's default public URL; the task manager derives where to find the hub from it. */
export const DEFAULT_HUB_PUBLIC_URL = 'http://localhost:3001'

export interface Config {
  shared: SharedConfig
  tasks: TasksConfig
}

/** Reads and validates the whole configuration once; throws ConfigError naming the variable. */
export function readConfig(env: Env = process.env): Config {
  const read = reader(env)
  const hubIssuer = withoutTrailingSlash(read.url('HUB_ISSUER', read.string('HUB_PUBLIC_URL', DEFAULT_HUB_PUBLIC_URL)))
  return {
    shared: {
      host: read.string('HOST', '127.0.0.1'),
      dataDir: path.resolve(read.string('DATA_DIR', './data')),
      databaseUrl: read.databaseUrl('DATABASE_URL'),
      logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info')
    },
    tasks: {
      port: read.port('PORT', 3000),
      appId: read.identifier('TASKS_APP_ID', 'tasks'),
      permissionsEnabled: read.boolean('PERMISSIONS_ENABLED', false),
      auth: read.oneOf('TASKS_AUTH', TASKS_AUTH_MODES, 'header'),
      hubIssuer,
      hubJwksUrl: read.url('HUB_JWKS_URL', `${hubIssuer}/.well-known/jwks.json`)
    }
  }
}

/** A URL as an issuer string: `http://localhost:3001`, never `http://localhost:3001/`. */
export function withoutTrailingSlash(url: URL): string {
  return url.href.replace(/\/+$/, '')
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
    databaseUrl(name: string): string | undefined {
      const value = raw(name)
      if (value === undefined) return undefined
      if (!/^postgres(ql)?:\/\//.test(value)) throw new ConfigError(name, 'must be a postgres:// URL')
      return value
    }
  }
}
