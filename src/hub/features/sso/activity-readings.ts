import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const ssoActivity = {
  'sso-token.issued': {
    shows: ['audience'],
    sentence: { en: 'Opened {audience}', es: 'Abriste {audience}' }
  }
} as const satisfies ActivityReadings
