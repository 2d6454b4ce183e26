import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { type MailTokenPurpose, createMailTokens } from './mail-tokens.js'
import type { MailQueue } from './queue.js'
import { emailVerificationMail, passwordChangedMail, passwordResetMail } from './templates.js'
import type { Language } from '../language/language.js'
import { languageOfAccount } from '../language/account-language.js'

export interface MailedAccount {
  userId: string
  email: string
  /** `users.locale`: the language the person chose, which every mail to the account is in; null when none. */
  locale: string | null
  /** The language of the request that caused the mail, for an account that chose none (else English). */
  requestLanguage?: Language
}

/** The account flows' mail: each token is issued in the transaction that queues the mail carrying it. */
export function createAccountMail(db: Kysely<Database>, queue: MailQueue, publicUrl: string) {
  const tokens = createMailTokens(db)
  /** Issues the account's newest token of this purpose and queues the mail carrying it, in one transaction. */
  const sendWithToken = async (account: MailedAccount, purpose: MailTokenPurpose, template: typeof passwordResetMail, now: Date): Promise<void> => {
    await db.transaction().execute(async (trx) => {
      const token = await tokens.issue(account.userId, purpose, now, trx)
      const mail = template({ publicUrl, language: languageOfAccount(account.locale, account.requestLanguage), email: account.email, token })
      await queue.enqueue({ ...mail, to: account.email, userId: account.userId }, now, trx)
    })
  }
  return {
    sendPasswordReset: (account: MailedAccount, now: Date) => sendWithToken(account, 'password-reset', passwordResetMail, now),
    sendVerification: (account: MailedAccount, now: Date) => sendWithToken(account, 'email-verification', emailVerificationMail, now),

    /**
     * Queued in the caller's transaction, so the notice goes out exactly when the change commits;
     * `firstProofOfAddress` when a reset first proved the address and removed what was added before.
     */
    async sendPasswordChanged(account: MailedAccount, now: Date, trx: Kysely<Database>, { firstProofOfAddress = false } = {}): Promise<void> {
      const mail = passwordChangedMail({ publicUrl, language: languageOfAccount(account.locale, account.requestLanguage), email: account.email, firstProofOfAddress })
      await queue.enqueue({ ...mail, to: account.email, userId: account.userId }, now, trx)
    },

    tokens
  }
}

export type AccountMail = ReturnType<typeof createAccountMail>
