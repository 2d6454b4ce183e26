import type { ErasureStep } from '../../kernel/records/erasure.js'

/** A deleted account's passkeys and its ceremonies under way (docs/account.md, "Deletion"). */
export const passkeysErasure = { tables: ['passkeys', 'passkeyChallenges'] } as const satisfies ErasureStep
