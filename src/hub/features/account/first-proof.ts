import type { Kysely } from 'kysely'
import type { Database, UserKeyedTable } from '../../../shared/database/schema.js'
import type { RemoveApplications } from '../../kernel/records/consents.js'

/**
 * What a password reset that is the first proof of the account's address does with each table
 * naming the account (docs/account.md, "Account pre-hijacking"): `true`, its rows are deleted,
 * since whoever held the account before the owner proved the address may have left a way back in
 * there; `false`, kept, for the reason given. Checked by the compiler as erasure's list is, so a
 * new table naming users does not build until its author decides.
 */
const REMOVED_ON_FIRST_PROOF = {
  passkeys: true,
  passkeyChallenges: true,
  // The two-step secret (on or pending), its recovery codes, and logins waiting for a code.
  totpCredentials: true,
  recoveryCodes: true,
  loginChallenges: true,
  // A device the earlier holder signed in from would otherwise not be "new" to the owner's notices.
  knownDevices: true,
  // Ended after the commit through the sessions module, as every reset ends them, so that this
  // instance forgets its cached copies at once; the task manager's end on `sessions-revoked`.
  sessions: false,
  tasksSessions: false,
  // The reset's caller cancels the links by purpose; the queue holds mail to the owner's address.
  mailTokens: false,
  mailQueue: false,
  // Not ways in: settings and the record of what happened, which the owner reads to see it.
  // (The OpenID Connect consents among them are withdrawn by `removeApplications`, as disconnecting does.)
  privacySettings: false,
  consents: false,
  auditEvents: false,
  securityEventOutbox: false,
  // Given by the family's administrators, not by whoever held the account.
  accessGrants: false,
  groupMembers: false,
  // Payments are Stripe's records of money paid, not credentials.
  billingSubscriptions: false,
  billingCustomers: false,
  billingInvoices: false,
  // A group's plan paid by the account's subscription: the payment covers the household still.
  billingGroupPlans: false
} as const satisfies Record<UserKeyedTable, boolean>

/** What was removed, for the reset's answer and its audit record. */
export interface RemovedOnFirstProof {
  passkeys: number
  /** Two-step sign-in was on, or being set up. */
  twoStep: boolean
  /** Applications that held a grant or a remembered consent to sign the person in. */
  applications: number
}

/** The applications the earlier holder let sign in: the kernel's point, which the OpenID Connect feature fills. */
export type { RemoveApplications }

/**
 * Deletes, in the reset's transaction, every way in that the account's earlier holder may have
 * added before its address was proven: passkeys, the two-step secret and recovery codes, pending
 * sign-in challenges, known devices, and the applications they let sign in (`removeApplications`:
 * the OpenID Connect provider's grants with the codes and tokens issued under them, as
 * disconnecting an application does, and the applications' remembered consents, withdrawn so the
 * owner is asked again). The provider's sessions are left to end with the hub sessions they were
 * signed in with (`ended-hub-sessions.ts`, which also sends the back-channel logouts).
 */
export async function removeWaysInOfEarlierHolder(trx: Kysely<Database>, userId: string, now: Date, removeApplications: RemoveApplications): Promise<RemovedOnFirstProof> {
  const counts: Partial<Record<UserKeyedTable, number>> = {}
  for (const [table, removed] of Object.entries(REMOVED_ON_FIRST_PROOF) as [UserKeyedTable, boolean][]) {
    if (!removed) continue
    // Every table of the union has the column; the cast stands for "any one of them".
    const result = await trx.deleteFrom(table as 'passkeys').where('userId', '=', userId).executeTakeFirst()
    counts[table] = Number(result.numDeletedRows)
  }
  const applications = await removeApplications(trx, userId, now)
  return { passkeys: counts.passkeys ?? 0, twoStep: (counts.totpCredentials ?? 0) > 0, applications }
}
