import type { ExportDataset } from '../../kernel/records/datasets.js'
import type { PasskeyRepository } from './repository.js'

/** A person's passkeys in the export: what they are called and when they were added and used, never a key. */
export function passkeysDataset(passkeys: PasskeyRepository): ExportDataset {
  return {
    name: 'passkeys',
    description: 'Your passkeys: name, when each was added (recordedAt) and last signed in',
    async *records(userId) {
      for (const { id, name, createdAt, lastUsedAt } of await passkeys.listOf(userId)) yield { id, recordedAt: createdAt, fields: { name, lastUsedAt } }
    }
  }
}
