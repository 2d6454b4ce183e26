import type { ErasureStep } from '../../kernel/records/erasure.js'

/** A deleted account's two-step secret, its recovery codes and its logins waiting for a code (docs/account.md, "Deletion"). */
export const twoStepErasure = { tables: ['totpCredentials', 'recoveryCodes', 'loginChallenges'] } as const satisfies ErasureStep
