import type { Kysely } from 'kysely'
import type { Database } from '../../shared/database/schema.js'
import { SECURITY_EVENT_MAX_AGE_SECONDS } from '../../shared/security-events/security-event-token.js'
import { CLOCK_SKEW_SECONDS } from '../../shared/sso/token-verifier.js'

/**
 * How long a `jti` is remembered: a SET is accepted only while its `iat` is at most the maximum
 * age old (with the clock skew either side), so after this a replay fails verification anyway.
 */
export const RECEIVED_EVENT_MEMORY_MS = (SECURITY_EVENT_MAX_AGE_SECONDS + 2 * CLOCK_SKEW_SECONDS) * 1000

/**
 * Records the `jti` of an accepted event (it names no one), in the transaction that acts on the
 * event; false when it was already there, so that no event is acted on twice. Of two deliveries
 * racing with one `jti`, the second waits for the first's row and then finds it. Forgets those
 * past their memory on the way.
 */
export async function firstReceipt(trx: Kysely<Database>, jti: string, now: Date): Promise<boolean> {
  await trx.deleteFrom('receivedSecurityEvents').where('receivedAt', '<', new Date(now.getTime() - RECEIVED_EVENT_MEMORY_MS).toISOString()).execute()
  const inserted = await trx
    .insertInto('receivedSecurityEvents')
    .values({ jti, receivedAt: now.toISOString() })
    .onConflict((conflict) => conflict.column('jti').doNothing())
    .executeTakeFirst()
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0
}
