import type { Catalogues, Language } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'
import type { GroupRefusal } from './service.js'

/**
 * The words of the console's groups pages, in every page language; the kernel's come with them
 * through `groupsTranslator`. The same keys and `{name}` placeholders in each language.
 */
const en = {
  'groups.section': 'Groups',
  'groups.title': 'Groups',
  'groups.intro': 'Groups gather people; applications may read the names of a person’s groups (to give roles, say).',
  'groups.list': 'Every group',
  'groups.none': 'No group yet.',
  'groups.name': 'Name',
  'groups.description': 'Description',
  'groups.members': 'Members',
  'groups.nameHint': 'Up to 64 letters, digits, single spaces, dots, hyphens or underscores, beginning and ending with a letter or digit. Unique, whatever the case.',
  'groups.create': 'New group',
  'groups.createSubmit': 'Make the group',
  'groups.edit': 'Name and description',
  'groups.save': 'Save',
  'groups.delete': 'Delete the group',
  'groups.deleteConfirm': 'Yes, delete {group}: its members leave it, and applications stop reading it',
  'groups.deleteSubmit': 'Delete',
  'groups.people': 'People in {group}',
  'groups.nobody': 'Nobody is in this group yet.',
  'groups.email': 'Email',
  'groups.displayName': 'Name',
  'groups.addedAt': 'Added',
  'groups.add': 'Add someone',
  'groups.addSubmit': 'Add',
  'groups.remove': 'Remove',
  'groups.removeDetail': '{email} from {group}',
  'groups.back': 'Back to every group',
  'groups.notice.created': 'The group was made.',
  'groups.notice.updated': 'The group was saved.',
  'groups.notice.deleted': 'The group was deleted.',
  'groups.notice.added': 'They are in the group now.',
  'groups.notice.removed': 'They are no longer in the group.',
  'groups.error.nameMissing': 'Give the group a name.',
  'groups.error.nameTooLong': 'The name is too long: 64 characters at most.',
  'groups.error.nameCharacters': 'The name may hold letters, digits, single spaces, dots, hyphens and underscores, and must begin and end with a letter or digit.',
  'groups.error.nameTaken': 'Another group already has this name (whatever the case).',
  'groups.error.descriptionTooLong': 'The description is too long: 200 characters at most.',
  'groups.error.descriptionCharacters': 'The description must not contain control or invisible characters.',
  'groups.error.noGroup': 'This group no longer exists.',
  'groups.error.noAccount': 'No account has this id.',
  'groups.error.noAccountWithEmail': 'No account has this email.',
  'groups.error.confirm': 'Tick the box to confirm the deletion.',
  'groups.error.generic': 'That did not work; try again.'
} as const

export type GroupsMessageKey = keyof typeof en

const es: Record<GroupsMessageKey, string> = {
  'groups.section': 'Grupos',
  'groups.title': 'Grupos',
  'groups.intro': 'Los grupos reúnen a personas; las aplicaciones pueden leer los nombres de los grupos de cada persona (para darle roles, por ejemplo).',
  'groups.list': 'Todos los grupos',
  'groups.none': 'Aún no hay ningún grupo.',
  'groups.name': 'Nombre',
  'groups.description': 'Descripción',
  'groups.members': 'Miembros',
  'groups.nameHint': 'Hasta 64 letras, dígitos, espacios sueltos, puntos, guiones o guiones bajos, empezando y terminando por una letra o un dígito. Único, sin importar mayúsculas.',
  'groups.create': 'Nuevo grupo',
  'groups.createSubmit': 'Crear el grupo',
  'groups.edit': 'Nombre y descripción',
  'groups.save': 'Guardar',
  'groups.delete': 'Eliminar el grupo',
  'groups.deleteConfirm': 'Sí, eliminar {group}: sus miembros salen de él y las aplicaciones dejan de leerlo',
  'groups.deleteSubmit': 'Eliminar',
  'groups.people': 'Personas en {group}',
  'groups.nobody': 'Aún no hay nadie en este grupo.',
  'groups.email': 'Correo electrónico',
  'groups.displayName': 'Nombre',
  'groups.addedAt': 'Añadida',
  'groups.add': 'Añadir a alguien',
  'groups.addSubmit': 'Añadir',
  'groups.remove': 'Quitar',
  'groups.removeDetail': '{email} de {group}',
  'groups.back': 'Volver a todos los grupos',
  'groups.notice.created': 'Se ha creado el grupo.',
  'groups.notice.updated': 'Se ha guardado el grupo.',
  'groups.notice.deleted': 'Se ha eliminado el grupo.',
  'groups.notice.added': 'Ya está en el grupo.',
  'groups.notice.removed': 'Ya no está en el grupo.',
  'groups.error.nameMissing': 'Ponle un nombre al grupo.',
  'groups.error.nameTooLong': 'El nombre es demasiado largo: 64 caracteres como máximo.',
  'groups.error.nameCharacters': 'El nombre puede tener letras, dígitos, espacios sueltos, puntos, guiones y guiones bajos, y debe empezar y terminar por una letra o un dígito.',
  'groups.error.nameTaken': 'Otro grupo ya tiene este nombre (sin importar mayúsculas).',
  'groups.error.descriptionTooLong': 'La descripción es demasiado larga: 200 caracteres como máximo.',
  'groups.error.descriptionCharacters': 'La descripción no debe contener caracteres de control ni invisibles.',
  'groups.error.noGroup': 'Este grupo ya no existe.',
  'groups.error.noAccount': 'Ninguna cuenta tiene este identificador.',
  'groups.error.noAccountWithEmail': 'Ninguna cuenta tiene este correo electrónico.',
  'groups.error.confirm': 'Marca la casilla para confirmar la eliminación.',
  'groups.error.generic': 'No ha funcionado; inténtalo de nuevo.'
}

export const GROUPS_WORDS: Catalogues<GroupsMessageKey> = { en, es }

export const groupsTranslator: (language: Language) => FeatureTranslate<GroupsMessageKey> = featureTranslator(GROUPS_WORDS)

export const GROUPS_NOTICES = ['created', 'updated', 'deleted', 'added', 'removed'] as const
export type GroupsNotice = (typeof GROUPS_NOTICES)[number]
export type GroupsError = GroupRefusal | 'confirm' | 'generic'
export const GROUPS_ERRORS: readonly GroupsError[] = ['nameMissing', 'nameTooLong', 'nameCharacters', 'nameTaken', 'descriptionTooLong', 'descriptionCharacters', 'noGroup', 'noAccount', 'noAccountWithEmail', 'confirm', 'generic']
