import { outageReason } from '../../../shared/database/availability.js'
import type { Logger } from '../../../shared/logging.js'
import { SECURITY_EVENT_CONTENT_TYPE } from '../../../shared/security-events/security-event-token.js'
import { batchWithinClaim, drainingRound, retryDelayMs, startRounds } from '../background/rounds.js'
import type { Keyring } from '../tokens/keyring.js'
import { type PendingSecurityEvent, SECURITY_EVENT_CLAIM_MS, type SecurityEventOutbox } from './outbox.js'
import { signSecurityEvent } from './security-event-token.js'

export const SECURITY_EVENT_SENDER_INTERVAL_MS = 5_000
const DELIVERY_TIMEOUT_MS = 10_000
const BATCH_SIZE = batchWithinClaim(SECURITY_EVENT_CLAIM_MS, DELIVERY_TIMEOUT_MS)
/** What of an application's refusal is kept in the outbox and the log. */
const REASON_MAX_LENGTH = 300

export interface SecurityEventSenderOptions {
  outbox: SecurityEventOutbox
  keyring: Keyring
  /** HUB_PUBLIC_URL: every SET's `iss`. */
  issuer: string
  /** Each application's events endpoint, by id (HUB_APPS `events=`), read at each attempt. */
  endpoints: Record<string, string>
  logger: Logger
  now: () => Date
  /** How often the outbox is looked at; also the first retry delay, which doubles up to an hour. */
  intervalMs?: number
}

/** Pushes due events now and every interval after, in the background; answers the stop function. */
export function startSecurityEventSender(options: SecurityEventSenderOptions): () => Promise<void> {
  const { intervalMs = SECURITY_EVENT_SENDER_INTERVAL_MS } = options
  return startRounds(dueSecurityEventSender({ ...options, intervalMs }), intervalMs)
}

/**
 * One round: pushes each due event (RFC 8935) and deletes it on 202; any other answer, or none,
 * leaves it for a retry after a delay that doubles per attempt, up to an hour, with no last
 * attempt: an application that stays away gets its events when it comes back. Never throws.
 */
export function dueSecurityEventSender({ outbox, keyring, issuer, endpoints, logger, now, intervalMs }: SecurityEventSenderOptions & { intervalMs: number }) {
  const deliver = async (event: PendingSecurityEvent): Promise<void> => {
    const about = { eventId: event.id, applicationId: event.applicationId, eventType: event.eventType, attempts: event.attempts }
    let refusal: string | undefined
    try {
      refusal = await push(event)
    } catch (error) {
      // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, a timeout...).
      refusal = outageReason((error as { cause?: unknown }).cause ?? error)
    }
    if (refusal === undefined) {
      await outbox.markDelivered(event.id)
      logger.info(about, 'security event delivered')
      return
    }
    const retryInMs = retryDelayMs(event.attempts, intervalMs)
    await outbox.retryLater(event.id, new Date(now().getTime() + retryInMs), refusal)
    logger.warn({ ...about, reason: refusal, retryInMs }, 'security event not delivered; will retry')
  }

  /** Undefined when the application accepted the event, else why not. */
  const push = async (event: PendingSecurityEvent): Promise<string | undefined> => {
    const endpoint = endpoints[event.applicationId]
    if (endpoint === undefined) return `HUB_APPS names no events endpoint for ${event.applicationId}`
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': SECURITY_EVENT_CONTENT_TYPE, accept: 'application/json' },
      body: await signSecurityEvent(keyring, issuer, event, now()),
      redirect: 'error',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS)
    })
    if (response.status === 202) {
      await response.body?.cancel()
      return undefined
    }
    return `${response.status} ${(await response.text()).slice(0, REASON_MAX_LENGTH)}`.trim()
  }

  return drainingRound({ claim: () => outbox.claimDue(now(), BATCH_SIZE), batchSize: BATCH_SIZE, deliver, logger, queueName: 'security event outbox' })
}
