import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const signInActivity = {
  signup: {
    shows: [],
    sentence: { en: 'Created your account', es: 'Creaste tu cuenta' }
  },
  'invitation.used': {
    shows: [],
    sentence: { en: "Accepted an administrator's invitation: your address counts as confirmed", es: 'Aceptaste la invitación de un administrador: tu dirección cuenta como confirmada' }
  },
  'session.refreshed': {
    shows: [],
    sentence: { en: 'Stayed signed in on {device}', es: 'Seguiste con la sesión iniciada en {device}' }
  },
  'session.ended': {
    shows: ['scope', 'current', 'count'],
    sentence: { en: 'Signed out one of your sessions', es: 'Cerraste una de tus sesiones' },
    variants: { others: { en: 'Signed out everywhere else ({count} sessions)', es: 'Cerraste sesión en todos los demás sitios ({count} sesiones)' } }
  }
} as const satisfies ActivityReadings
