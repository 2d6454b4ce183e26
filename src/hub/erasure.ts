import { billingErasure } from './features/billing/erasure.js'
import { type AccountErasureOptions, type AccountToErase, eraseAccount as eraseAccountBy } from './features/deletion/erase-account.js'
import { oidcErasure } from './features/oidc/erasure.js'
import { passkeysErasure } from './features/passkeys/erasure.js'
import { privacyErasure } from './features/privacy/erasure.js'
import { twoStepErasure } from './features/two-step/erasure.js'
import { erasureSteps } from './kernel/records/erasure.js'

/**
 * What deleting an account erases, part by part (docs/account.md, "Deletion"): the kernel's
 * tables, then each feature's step. Composed once, for `DELETE /api/account` and `users:delete`;
 * it does not build until every table naming users is listed by the part that keeps it.
 */
export const ERASURE_STEPS = erasureSteps(privacyErasure, twoStepErasure, passkeysErasure, billingErasure, oidcErasure)

/** Erases an account with every part's step (`eraseAccount` of the deletion feature). */
export function eraseAccount(options: Omit<AccountErasureOptions, 'steps'>, account: AccountToErase, now: Date): Promise<void> {
  return eraseAccountBy({ ...options, steps: ERASURE_STEPS }, account, now)
}
