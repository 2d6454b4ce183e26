import type { ExportDataset } from '../../kernel/records/datasets.js'
import type { TwoStepRepository } from './repository.js'

/** Whether two-step sign-in is on and how many recovery codes are left: never the secret or a code. */
export function twoStepDataset(repository: TwoStepRepository): ExportDataset {
  return {
    name: 'twoStepSignIn',
    description: 'Two-step sign-in: whether it is on, since when, and how many recovery codes are left (never the secret or a code)',
    async *records(userId) {
      const credential = await repository.credentialOf(userId)
      const confirmedAt = credential?.confirmedAt ?? null
      yield {
        id: userId,
        recordedAt: confirmedAt,
        fields: { totpEnabled: confirmedAt !== null, recoveryCodesLeft: confirmedAt === null ? 0 : await repository.recoveryCodesLeft(userId) }
      }
    }
  }
}
