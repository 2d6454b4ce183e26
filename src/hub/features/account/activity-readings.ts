import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const accountActivity = {
  'password.changed': {
    shows: ['sessionsEnded'],
    sentence: { en: 'Changed your password', es: 'Cambiaste tu contraseña' }
  },
  'email.change.requested': {
    shows: ['from', 'to'],
    sentence: { en: 'Asked to change your email address to {to}', es: 'Pediste cambiar tu dirección de correo a {to}' }
  },
  'email.changed': {
    shows: ['from', 'to'],
    sentence: { en: 'Changed your email address from {from} to {to}', es: 'Cambiaste tu dirección de correo de {from} a {to}' }
  },
  'profile.updated': {
    shows: ['changed'],
    sentence: { en: 'Updated your profile', es: 'Actualizaste tu perfil' }
  },
  'password.reset.requested': {
    shows: [],
    sentence: { en: 'Asked for a link to reset your password', es: 'Pediste un enlace para restablecer tu contraseña' }
  },
  'password.reset': {
    shows: ['endedSessions'],
    sentence: { en: 'Reset your password', es: 'Restableciste tu contraseña' }
  },
  'email.verified': {
    shows: [],
    sentence: { en: 'Confirmed your email address', es: 'Confirmaste tu dirección de correo' }
  }
} as const satisfies ActivityReadings
