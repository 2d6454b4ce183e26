import type { ActivityReadings } from '../../kernel/audit/activity.js'

/**
 * How the events this feature records read on their owner's activity page (docs/activity.md): an
 * administrator's changes to the applications, on the administrator's own trail, naming the
 * application by its name and its client id (the id is what the administrator registered it by).
 */
export const oidcActivity = {
  'client.added': {
    shows: ['name', 'clientId'],
    sentence: { en: 'Added the application “{name}” ({clientId})', es: 'Añadiste la aplicación «{name}» ({clientId})' }
  },
  'client.changed': {
    shows: ['name', 'clientId'],
    sentence: { en: 'Changed the application “{name}” ({clientId})', es: 'Cambiaste la aplicación «{name}» ({clientId})' }
  },
  'client.removed': {
    shows: ['name', 'clientId'],
    sentence: { en: 'Removed the application “{name}” ({clientId}), ending its grants and tokens', es: 'Eliminaste la aplicación «{name}» ({clientId}), con sus permisos y tokens' }
  },
  'client.secret-rotated': {
    shows: ['name', 'clientId'],
    sentence: { en: 'Replaced the secret of the application “{name}” ({clientId})', es: 'Cambiaste el secreto de la aplicación «{name}» ({clientId})' }
  }
} as const satisfies ActivityReadings
