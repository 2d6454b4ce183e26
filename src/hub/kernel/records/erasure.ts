import type { Kysely } from 'kysely'
import type { Database, UserKeyedTable } from '../../../shared/database/schema.js'

/**
 * What one part of the hub erases of a person when their account is deleted (docs/account.md,
 * "Deletion"), inside erasure's one transaction: the tables it keeps that name the person in a
 * `userId` column, deleted by it, then whatever else it holds of them (`erase`). A feature declares
 * its step as a constant, `{ tables: [...] } as const satisfies ErasureStep`, so that the tables'
 * names reach `erasureSteps` for its check.
 */
export interface ErasureStep {
  readonly tables: readonly UserKeyedTable[]
  erase?(trx: Kysely<Database>, userId: string): Promise<void>
}

/** The kernel's own tables naming a person, erased before any feature's. */
const KERNEL_ERASURE = {
  tables: [
    'sessions',
    'knownDevices',
    // Given by the family's administrators; the hub's copy goes.
    'accessGrants',
    // The groups an administrator put the person in.
    'groupMembers',
    // Its `account.deleted` record is written once every step has run.
    'auditEvents',
    // The confirmation is queued with no user id once every step has run, so it stays.
    'mailQueue',
    'mailTokens',
    // Events not yet delivered: `account-purged`, recorded once every step has run, supersedes them.
    'securityEventOutbox',
    // The task manager's browser sessions; it also ends them itself on `account-purged`. (Its tasks
    // are named by `assignee` and erased by the task manager itself, on that event.)
    'tasksSessions'
  ]
} as const satisfies ErasureStep

type KernelTable = (typeof KERNEL_ERASURE.tables)[number]

/** The tables naming a person that neither the kernel nor any of `Steps` lists. */
type Unlisted<Steps extends readonly ErasureStep[]> = Exclude<UserKeyedTable, KernelTable | Steps[number]['tables'][number]>

/**
 * The kernel's step, then the features' in the order given. It type-checks only when together they
 * name every table with a `userId` column (`UserKeyedTable`), so that a new table of personal data
 * does not build until the part that keeps it lists it: the error names the tables left out.
 */
export function erasureSteps<const Steps extends readonly ErasureStep[]>(
  ...steps: Steps & ([Unlisted<Steps>] extends [never] ? unknown : { unlisted: Unlisted<Steps> })
): readonly ErasureStep[] {
  return [KERNEL_ERASURE, ...steps]
}
