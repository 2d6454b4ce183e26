import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const groupsActivity = {
  'group.created': {
    shows: ['group'],
    sentence: { en: 'Created the group {group}', es: 'Creaste el grupo {group}' }
  },
  'group.updated': {
    shows: ['group'],
    sentence: { en: 'Changed the group {group}', es: 'Cambiaste el grupo {group}' }
  },
  'group.deleted': {
    shows: ['group'],
    sentence: { en: 'Deleted the group {group}', es: 'Eliminaste el grupo {group}' }
  },
  'group.joined': {
    shows: ['group'],
    sentence: { en: 'An administrator added you to the group {group}', es: 'Un administrador te añadió al grupo {group}' }
  },
  'group.left': {
    shows: ['group'],
    sentence: { en: 'An administrator removed you from the group {group}', es: 'Un administrador te quitó del grupo {group}' }
  }
} as const satisfies ActivityReadings
