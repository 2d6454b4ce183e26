import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { RequestOrigin } from '../audit/context.js'

/**
 * The hub's consent log (docs/privacy.md): what a person decided, purpose by purpose, and when.
 * The privacy feature keeps it; a feature that asks for consent (the OpenID Connect provider,
 * recording each decision about a client under a purpose of its own) records and reads it here.
 */
export interface ConsentLog {
  recordConsent(userId: string, decision: { purpose: string; granted: boolean; version: string | null }, origin: RequestOrigin): Promise<unknown>
  /** The last decision recorded for each purpose. */
  consents(userId: string): Promise<{ current: Readonly<Record<string, { granted: boolean; version: string | null }>> }>
}

/**
 * Withdraws the consents a person has granted whose purpose starts with `purposePrefix`, in the
 * transaction `trx`, and answers the purposes withdrawn.
 */
export type WithdrawConsents = (trx: Kysely<Database>, userId: string, purposePrefix: string, now: Date) => Promise<string[]>

/**
 * Removes, in the first proof's transaction, every application an account's earlier holder let
 * sign in as it (docs/account.md, "Account pre-hijacking"), and answers how many.
 */
export type RemoveApplications = (trx: Kysely<Database>, userId: string, now: Date) => Promise<number>
