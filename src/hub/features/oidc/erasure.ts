import type { ErasureStep } from '../../kernel/records/erasure.js'

/**
 * The OpenID Connect provider's grants and tokens name the person as their account; its sessions,
 * whose hub sessions end with the deletion, are left for ended-hub-sessions.ts to log out
 * (docs/account.md, "Deletion"; docs/oidc.md).
 */
export const oidcErasure = {
  tables: [],
  async erase(trx, userId) {
    await trx.deleteFrom('oidcProviderRecords').where('accountId', '=', userId).where('model', '<>', 'Session').execute()
  }
} as const satisfies ErasureStep
