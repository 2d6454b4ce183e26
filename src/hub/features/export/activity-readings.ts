import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const exportActivity = {
  'export.created': {
    shows: ['format'],
    sentence: { en: 'Exported your data ({format})', es: 'Exportaste tus datos ({format})' }
  }
} as const satisfies ActivityReadings
