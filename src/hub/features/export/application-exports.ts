import { randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import { outageReason } from '../../../shared/database/availability.js'
import type { Logger } from '../../../shared/logging.js'
import {
  type ApplicationExportRecord,
  EXPORT_REQUEST_LIFETIME_SECONDS,
  EXPORT_REQUEST_TOKEN_TYPE,
  EXPORT_SCOPE
} from '../../../shared/export/export-request.js'
import type { Keyring } from '../../kernel/tokens/keyring.js'

/** How long the hub waits for an application's answer before listing it as unavailable. */
export const APPLICATION_EXPORT_TIMEOUT_MS = 5_000
/**
 * The most the hub reads of one application's answer. The whole export is built in memory, so an
 * application answering without end (a bug, or a compromised one) must not take the hub's memory
 * with it; a household's records are far below this.
 */
export const APPLICATION_EXPORT_MAX_BYTES = 32 * 1024 * 1024
/** What of an application's refusal the operator's log keeps. */
const DETAIL_MAX_LENGTH = 300
const NOT_AN_EXPORT = 'the answer is not an export'

/** What one application gave for the export: its datasets, or why there are none. */
export type ApplicationExportResult =
  | { status: 'exported'; datasets: Record<string, ApplicationExportRecord[]> }
  | { status: 'unavailable'; reason: string }

/** Every application asked, by id; never rejects: an application's failure is its entry. */
export type ApplicationExports = (userId: string) => Promise<Record<string, ApplicationExportResult>>

export interface ApplicationExportOptions {
  /** Each application's export endpoint, by id (HUB_APPS `export=`). */
  endpoints: Record<string, string>
  keyring: Keyring
  /** HUB_PUBLIC_URL: every request's `iss`. */
  issuer: string
  logger: Logger
  now: () => Date
  timeoutMs?: number
  maxBytes?: number
}

/**
 * Asks every application with an export endpoint, all at once, for what it holds about the
 * person (docs/privacy.md, "Export across the family"): a GET with a token of its own, signed by the
 * SSO keys. One that errs, answers something else than an export, or has not answered within the
 * timeout is listed as unavailable, with why in a few words; the details (the application's
 * answer, an address that did not answer) go to the operator's log, not into the person's file.
 */
export function applicationExports(options: ApplicationExportOptions): ApplicationExports {
  const { endpoints, keyring, issuer, logger, now, timeoutMs = APPLICATION_EXPORT_TIMEOUT_MS, maxBytes = APPLICATION_EXPORT_MAX_BYTES } = options
  const unavailable = (applicationId: string, reason: string, detail?: string): ApplicationExportResult => {
    logger.warn({ applicationId, reason, ...(detail === undefined ? {} : { detail }) }, 'application export unavailable')
    return { status: 'unavailable', reason }
  }
  const exportOf = async (applicationId: string, endpoint: string, userId: string): Promise<ApplicationExportResult> => {
    try {
      const response = await fetch(endpoint, {
        headers: { authorization: `Bearer ${await signExportRequest(keyring, issuer, applicationId, userId, now())}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs)
      })
      if (!response.ok) return unavailable(applicationId, `answered ${response.status}`, (await response.text()).slice(0, DETAIL_MAX_LENGTH))
      const body = await bodyUpTo(response, maxBytes)
      if (body === undefined) return unavailable(applicationId, `the answer is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`)
      const answer: unknown = JSON.parse(body)
      return isExportAnswer(answer) ? { status: 'exported', datasets: answer.datasets } : unavailable(applicationId, NOT_AN_EXPORT)
    } catch (error) {
      if (error instanceof DOMException && error.name === 'TimeoutError') return unavailable(applicationId, `no answer within ${timeoutMs / 1000} s`)
      if (error instanceof SyntaxError) return unavailable(applicationId, NOT_AN_EXPORT)
      // fetch says only "fetch failed"; its cause says why (ECONNREFUSED...).
      return unavailable(applicationId, 'unreachable', outageReason((error as { cause?: unknown }).cause ?? error))
    }
  }
  return async (userId) => {
    const results = await Promise.all(
      Object.entries(endpoints).map(async ([applicationId, endpoint]) => [applicationId, await exportOf(applicationId, endpoint, userId)] as const)
    )
    return Object.fromEntries(results)
  }
}

/**
 * The request's proof, for one application and one person: `typ` hearth-export+jwt, `aud` the
 * application, `sub` the person, `scope` export, a fresh `jti` so it is answered once, and an
 * expiry a minute away.
 */
export async function signExportRequest(keyring: Keyring, issuer: string, applicationId: string, userId: string, now: Date): Promise<string> {
  const { key, kid, alg } = await keyring.signingKey()
  const issuedAt = Math.floor(now.getTime() / 1000)
  return new SignJWT({ scope: EXPORT_SCOPE })
    .setProtectedHeader({ alg, kid, typ: EXPORT_REQUEST_TOKEN_TYPE })
    .setIssuer(issuer)
    .setAudience(applicationId)
    .setSubject(userId)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + EXPORT_REQUEST_LIFETIME_SECONDS)
    .sign(key)
}

/** The body as text, or undefined (the rest left unread) once it passes `maxBytes`. */
async function bodyUpTo(response: Response, maxBytes: number): Promise<string | undefined> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes || !response.body) {
    await response.body?.cancel()
    return response.body ? undefined : ''
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let length = 0
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    length += read.value.byteLength
    if (length > maxBytes) {
      await reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(read.value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function isExportAnswer(answer: unknown): answer is { datasets: Record<string, ApplicationExportRecord[]> } {
  const datasets = (answer as { datasets?: unknown } | null)?.datasets
  if (typeof datasets !== 'object' || datasets === null || Array.isArray(datasets)) return false
  return Object.values(datasets).every((records) => Array.isArray(records) && records.every(isRecord))
}

function isRecord(record: unknown): record is ApplicationExportRecord {
  const { id, recordedAt, fields } = (record ?? {}) as Partial<ApplicationExportRecord>
  return typeof id === 'string' && (recordedAt === null || typeof recordedAt === 'string') && typeof fields === 'object' && fields !== null && !Array.isArray(fields)
}
