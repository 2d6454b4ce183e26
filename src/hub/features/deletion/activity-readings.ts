import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const deletionActivity = {
  'account.deleted': {
    shows: [],
    sentence: { en: 'Deleted your account', es: 'Eliminaste tu cuenta' }
  }
} as const satisfies ActivityReadings
