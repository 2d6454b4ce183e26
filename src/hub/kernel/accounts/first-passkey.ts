import type { Kysely } from 'kysely'
import type { Static, TSchema, TString } from 'typebox'
import type { Database } from '../../../shared/database/schema.js'
import type { AuditEventInput } from '../audit/events.js'

/**
 * A passkey as the first way into an account not made yet: an invited person who chooses one
 * over a password (docs/administration.md, "Invitations"). The passkeys feature offers its
 * registration ceremony through its face; the feature making the account runs it, and makes the
 * account in the transaction that stores the passkey.
 */
export interface FirstPasskey<Response extends TSchema = TSchema> {
  /** The route schemas: the browser's answer (`navigator.credentials.create()` as JSON), the name one may give it, the options. */
  schemas: { response: Response; name: TString; options: TSchema }
  /**
   * Registration options for the account about to be made for `email`. Its id is chosen here (the
   * user handle its authenticator keeps); the challenge is bound to that id and to `binding`
   * (what the person holds: their invitation), for 5 minutes and one use.
   */
  begin(email: string, binding: string, now: Date): Promise<object>
  /**
   * Checks the typed name (400), takes the challenge the response signed, if it was `binding`'s
   * (400 when expired, used or another's), and verifies the response (400).
   */
  finish(response: Static<Response>, typedName: string | undefined, binding: string, now: Date): Promise<FinishedFirstPasskey>
}

export interface FinishedFirstPasskey {
  /** The id to make the account with: the user handle its passkey carries. */
  userId: string
  /** Stores the passkey, in the transaction making the account; 409 when the credential is registered already. Answers the audit event saying so. */
  store(trx: Kysely<Database>, now: Date): Promise<AuditEventInput>
}
