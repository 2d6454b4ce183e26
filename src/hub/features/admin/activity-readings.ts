import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const adminActivity = {
  'admin.setup': {
    shows: ['created'],
    sentence: { en: 'Became an administrator of this hub with its set-up link', es: 'Te convertiste en administrador de este hub con su enlace de configuración' }
  }
} as const satisfies ActivityReadings
