import { type Kysely, sql } from 'kysely'
import type { Logger } from '../logging.js'

/**
 * Socket errors, and the PostgreSQL and SQLite codes, that say the database cannot be reached
 * or cannot serve right now: an outage to wait out, not a wrong query or a wrong request.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // admin_shutdown (pg_terminate_backend, a restart), crash_shutdown, cannot_connect_now (starting
  // up or shutting down), too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // Another process held the write lock for longer than the busy timeout.
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY'
])

/** node-postgres reports a lost or never-made connection by message, without a code. */
const UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/

/** Whether `error` means the database is unreachable (a connection lost, refused or timed out). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true
  if (UNAVAILABLE_MESSAGES.test(error.message)) return true
  // Connecting to a name with several addresses fails with one error per address.
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable)
  return error.cause !== undefined && isDatabaseUnavailable(error.cause)
}

/** One short line for the log: an outage repeats, and its stack trace says nothing new. */
export function outageReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: unknown }).code
  const message = error.message || (error instanceof AggregateError ? String(error.errors[0]) : error.name)
  return typeof code === 'string' ? `${code}: ${message}` : message
}

/**
 * What to log of a failure: a known outage as its one-line reason, anything else as the error
 * itself, with its stack, since nobody has seen that one before.
 */
export function failureForLog(error: unknown): { reason: string } | { err: unknown } {
  return isDatabaseUnavailable(error) ? { reason: outageReason(error) } : { err: error }
}

/** Answers when the database runs a trivial query within `timeoutMs`; throws otherwise. */
export async function pingDatabase<DB>(db: Kysely<DB>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('the database did not answer in time'), { code: 'ETIMEDOUT' })), timeoutMs)
  })
  try {
    await Promise.race([sql`select 1`.execute(db), timedOut])
  } finally {
    clearTimeout(timer)
  }
}

export interface WaitOptions {
  /** How long to keep trying before giving up. */
  timeoutMs: number
  logger: Logger
  /** The first pause between tries; it doubles up to `maxDelayMs`. */
  initialDelayMs?: number
  maxDelayMs?: number
}

export class DatabaseUnreachableError extends Error {
  constructor(timeoutMs: number, cause: unknown) {
    super(`the database could not be reached within ${Math.round(timeoutMs / 1000)} s (${outageReason(cause)})`, { cause })
    this.name = 'DatabaseUnreachableError'
  }
}

/**
 * Waits for the database to answer, retrying with exponential backoff while it is unreachable
 * (a database starting beside the service, a failover in progress). Any other error (a wrong
 * password, a database that does not exist) is thrown at once: waiting would not mend it.
 */
export async function waitForDatabase<DB>(db: Kysely<DB>, options: WaitOptions): Promise<void> {
  const { timeoutMs, logger, initialDelayMs = 250, maxDelayMs = 5_000 } = options
  const deadline = Date.now() + timeoutMs
  for (let attempt = 1, delayMs = initialDelayMs; ; attempt++, delayMs = Math.min(delayMs * 2, maxDelayMs)) {
    try {
      await pingDatabase(db, maxDelayMs)
      if (attempt > 1) logger.info({ attempts: attempt }, 'database reachable')
      return
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error
      const remainingMs = deadline - Date.now()
      if (remainingMs <= 0) throw new DatabaseUnreachableError(timeoutMs, error)
      const retryInMs = Math.min(delayMs, remainingMs)
      logger.warn({ attempt, retryInMs, reason: outageReason(error) }, 'database not reachable yet; retrying')
      await new Promise((resolve) => setTimeout(resolve, retryInMs))
    }
  }
}
