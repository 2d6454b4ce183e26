import type { ErasureStep } from '../../kernel/records/erasure.js'

/** A deleted account's privacy settings and every consent it recorded (docs/account.md, "Deletion"). */
export const privacyErasure = { tables: ['privacySettings', 'consents'] } as const satisfies ErasureStep
