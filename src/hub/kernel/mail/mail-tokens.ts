import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'

/** How long a token sent by mail stays valid, by what it is for. */
export const MAIL_TOKEN_LIFETIMES_MS = {
  'password-reset': 30 * 60_000,
  'email-verification': 24 * 60 * 60_000,
  'email-change': 24 * 60 * 60_000
} as const

export type MailTokenPurpose = keyof typeof MAIL_TOKEN_LIFETIMES_MS

const TOKEN_BYTES = 32
/** 32 bytes in base64url, unpadded. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/

export function newMailToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url')
}

/** What is stored instead of the token: a leaked table yields no usable link. */
export function hashMailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/**
 * Tokens that mailed links carry. Each account holds at most one per purpose (the row's key), so
 * issuing one replaces the older in the same statement, and only the newest can be used. A token
 * is found by its hash through the index: no secret is compared in code, and what the lookup's
 * timing could reveal is the hash of a guess, which says nothing about a real token.
 */
export function createMailTokens(db: Kysely<Database>) {
  return {
    /**
     * A fresh token for the account and purpose; pass the caller's transaction to issue it with its
     * mail. An email-change token carries the address it moves the account to.
     */
    async issue(userId: string, purpose: MailTokenPurpose, now: Date, executor: Kysely<Database> = db, newEmail: string | null = null): Promise<string> {
      const token = newMailToken()
      const row = {
        tokenHash: hashMailToken(token),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + MAIL_TOKEN_LIFETIMES_MS[purpose]).toISOString(),
        usedAt: null,
        newEmail
      }
      await executor
        .insertInto('mailTokens')
        .values({ userId, purpose, ...row })
        .onConflict((conflict) => conflict.columns(['userId', 'purpose']).doUpdateSet(row))
        .execute()
      return token
    },

    /**
     * Uses the token up: answers its account, or null when it is unknown, used, expired, replaced
     * or for another purpose. One conditional UPDATE decides, so of two requests racing with one
     * token only one gets the account.
     */
    async consume(token: string, purpose: MailTokenPurpose, now: Date, executor: Kysely<Database> = db): Promise<string | null> {
      return (await use(token, purpose, now, executor))?.userId ?? null
    },

    /** Withdraws the account's unused links of these purposes: a credential they were mailed to recover has changed. */
    async cancel(userId: string, purposes: readonly MailTokenPurpose[], executor: Kysely<Database> = db): Promise<void> {
      await executor.deleteFrom('mailTokens').where('userId', '=', userId).where('purpose', 'in', purposes).execute()
    },

    /** As `consume`, for an email-change token: its account and the address it moves to. */
    async consumeEmailChange(token: string, now: Date, executor: Kysely<Database> = db): Promise<{ userId: string; newEmail: string } | null> {
      const used = await use(token, 'email-change', now, executor)
      return used?.newEmail ? { userId: used.userId, newEmail: used.newEmail } : null
    }
  }

  async function use(token: string, purpose: MailTokenPurpose, now: Date, executor: Kysely<Database>) {
    if (!TOKEN_FORMAT.test(token)) return undefined
    return executor
      .updateTable('mailTokens')
      .set({ usedAt: now.toISOString() })
      .where('tokenHash', '=', hashMailToken(token))
      .where('purpose', '=', purpose)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now.toISOString())
      .returning(['userId', 'newEmail'])
      .executeTakeFirst()
  }
}

export type MailTokens = ReturnType<typeof createMailTokens>
