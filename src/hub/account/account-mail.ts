import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../../shared/database/schema.js'
import { createMailTokens } from '../mail/mail-tokens.js'
import { createMailQueue } from '../mail/queue.js'
import { emailVerificationMail, passwordChangedMail, passwordResetMail } from '../mail/templates.js'
import { LANGUAGE_COOKIE, type Language, chooseLanguage } from '../pages/language.js'

export interface MailedAccount {
  userId: string
  email: string
}

/**
 * The language of an account's mail. Accounts store none yet (the profile's `locale` comes later in
 * issue 16), so it is the language the hub's pages would show this request: the switch's cookie,
 * else Accept-Language, else English.
 */
export function mailLanguageOf(request: FastifyRequest): Language {
  return chooseLanguage(request.cookies[LANGUAGE_COOKIE], request.headers['accept-language'])
}

/** The account flows' mail: each token is issued in the transaction that queues the mail carrying it. */
export function createAccountMail(db: Kysely<Database>, publicUrl: string) {
  const queue = createMailQueue(db)
  const tokens = createMailTokens(db)
  return {
    async sendPasswordReset(account: MailedAccount, language: Language, now: Date): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const token = await tokens.issue(account.userId, 'password-reset', now, trx)
        const mail = passwordResetMail({ publicUrl, language, email: account.email, token })
        await queue.enqueue({ ...mail, to: account.email, userId: account.userId }, now, trx)
      })
    },

    async sendVerification(account: MailedAccount, language: Language, now: Date): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const token = await tokens.issue(account.userId, 'email-verification', now, trx)
        const mail = emailVerificationMail({ publicUrl, language, email: account.email, token })
        await queue.enqueue({ ...mail, to: account.email, userId: account.userId }, now, trx)
      })
    },

    /** Queued in the caller's transaction, so the notice goes out exactly when the change commits. */
    async sendPasswordChanged(account: MailedAccount, language: Language, now: Date, trx: Kysely<Database>): Promise<void> {
      const mail = passwordChangedMail({ publicUrl, language, email: account.email })
      await queue.enqueue({ ...mail, to: account.email, userId: account.userId }, now, trx)
    },

    tokens
  }
}

export type AccountMail = ReturnType<typeof createAccountMail>
