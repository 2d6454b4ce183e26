import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's (the administrator's) activity page (docs/activity.md). */
export const invitationsActivity = {
  'invitation.sent': {
    shows: ['email'],
    sentence: { en: 'Invited {email} to make an account', es: 'Invitaste a {email} a crear una cuenta' }
  },
  'invitation.withdrawn': {
    shows: ['email'],
    sentence: { en: 'Withdrew the invitation of {email}', es: 'Retiraste la invitación de {email}' }
  }
} as const satisfies ActivityReadings
