/**
 * What the console's list of accounts shows of each beside its `users` row, kept by the features
 * that own those tables (docs/administration.md, "Users"): two-step sign-in's credential, the
 * passkeys. A feature declares its part as `accountFacts` on its face; the kernel merges them.
 */
export interface AccountFacts {
  /** Two-step sign-in is on. */
  twoStep: boolean
  /** How many passkeys the account has. */
  passkeys: number
}

/** An account no feature says anything about: no second step, no passkey. */
export const NO_ACCOUNT_FACTS: AccountFacts = { twoStep: false, passkeys: 0 }

/** One feature's part of the facts of a page of accounts, read at once (a query a page, never one an account); an account it knows nothing of is absent. */
export type AccountFactsSource = (userIds: readonly string[]) => Promise<ReadonlyMap<string, Partial<AccountFacts>>>

/** Every feature's part merged, each account given the defaults for what no feature said. */
export function composeAccountFacts(sources: readonly AccountFactsSource[]): (userIds: readonly string[]) => Promise<Map<string, AccountFacts>> {
  return async (userIds) => {
    const parts = await Promise.all(sources.map((source) => source(userIds)))
    return new Map(userIds.map((userId) => [userId, Object.assign({}, NO_ACCOUNT_FACTS, ...parts.map((part) => part.get(userId) ?? {})) as AccountFacts]))
  }
}
