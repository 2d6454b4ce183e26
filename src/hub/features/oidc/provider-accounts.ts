import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { accountIdentities } from '../../kernel/tokens/sso-identity.js'
import type { ProviderAccountOf } from './provider.js'

/** The built-in provider's accounts: a disabled or deleted one is no account to the relying parties. */
export function builtinProviderAccounts(db: Kysely<Database>): ProviderAccountOf {
  const identityOf = accountIdentities(db)
  return async (accountId) => {
    const account = await identityOf(accountId)
    if (!account || account.disabled) return undefined
    const { disabled: _disabled, ...identity } = account
    return identity
  }
}

/**
 * Under an external provider the hub keeps no account, only sessions holding what the provider's
 * ID token said: a person is known to relying parties while one of their hub sessions lives.
 */
export function externalProviderAccounts(db: Kysely<Database>, now: () => Date): ProviderAccountOf {
  return async (accountId) => {
    const session = await db
      .selectFrom('sessions')
      .select(['email', 'emailVerified'])
      .where('userId', '=', accountId)
      .where('expiresAt', '>', now().toISOString())
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst()
    return session && { email: session.email, emailVerified: session.emailVerified === 1 }
  }
}
