import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const passkeysActivity = {
  'passkey.added': {
    shows: ['name'],
    sentence: { en: 'Added the passkey “{name}”', es: 'Añadiste la llave de acceso «{name}»' }
  },
  'passkey.renamed': {
    shows: ['name'],
    sentence: { en: 'Renamed a passkey to “{name}”', es: 'Cambiaste el nombre de una llave de acceso a «{name}»' }
  },
  'passkey.removed': {
    shows: [],
    sentence: { en: 'Removed a passkey', es: 'Eliminaste una llave de acceso' }
  }
} as const satisfies ActivityReadings
