import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const privacyActivity = {
  'privacy.updated': {
    shows: ['changed', 'consents'],
    sentence: { en: 'Changed your privacy settings', es: 'Cambiaste tus ajustes de privacidad' }
  },
  'consent.recorded': {
    shows: ['purpose', 'granted', 'version'],
    sentence: { en: 'Gave your consent to {purpose}', es: 'Diste tu consentimiento para {purpose}' },
    variants: { withdrawn: { en: 'Withdrew your consent to {purpose}', es: 'Retiraste tu consentimiento para {purpose}' } }
  }
} as const satisfies ActivityReadings
