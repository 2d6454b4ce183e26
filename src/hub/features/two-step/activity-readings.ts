import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const twoStepActivity = {
  'totp.enabled': {
    shows: [],
    sentence: { en: 'Turned on two-step sign-in', es: 'Activaste el inicio de sesión en dos pasos' }
  },
  'totp.disabled': {
    shows: [],
    sentence: { en: 'Turned off two-step sign-in', es: 'Desactivaste el inicio de sesión en dos pasos' }
  },
  'recovery-codes.regenerated': {
    shows: [],
    sentence: { en: 'Made new recovery codes', es: 'Generaste nuevos códigos de recuperación' }
  },
  'recovery-code.used': {
    shows: ['remaining'],
    sentence: { en: 'Signed in with a recovery code ({remaining} left)', es: 'Iniciaste sesión con un código de recuperación (quedan {remaining})' }
  },
  'signin.second-factor.failed': {
    shows: ['method', 'attemptsLeft'],
    sentence: { en: 'A wrong second-step code was entered for your account', es: 'Se introdujo un código de segundo paso incorrecto para tu cuenta' }
  }
} as const satisfies ActivityReadings
