import type { ActivityReadings } from '../../kernel/audit/activity.js'

/**
 * How an administrator's changes read on the touched person's activity page (docs/activity.md).
 * `detail.by`, the administrator's id, is kept in the trail and the export, not shown: an id means
 * nothing to a person. Disabling and enabling are the kernel's events (`account.disabled`, read
 * there as "An administrator disabled your account").
 */
export const usersActivity = {
  'account.promoted': {
    shows: [],
    sentence: { en: 'An administrator made you an administrator of this hub', es: 'Un administrador te hizo administrador de este hub' }
  },
  'account.demoted': {
    shows: [],
    sentence: { en: 'An administrator made you a member: you no longer administer this hub', es: 'Un administrador te hizo miembro: ya no administras este hub' }
  },
  'account.name-changed': {
    shows: [],
    sentence: { en: 'An administrator changed your display name', es: 'Un administrador cambió tu nombre visible' }
  },
  'account.signed-out-everywhere': {
    shows: ['endedSessions'],
    sentence: { en: 'An administrator signed you out of every device', es: 'Un administrador cerró tu sesión en todos los dispositivos' }
  },
  'account.two-step-removed': {
    shows: [],
    sentence: { en: 'An administrator turned off two-step sign-in for your account', es: 'Un administrador desactivó el inicio de sesión en dos pasos de tu cuenta' }
  }
} as const satisfies ActivityReadings
