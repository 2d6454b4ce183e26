import { type Language, catalogueTranslator } from '../../hub/kernel/language/language.js'

const en = {
  'site.name': 'Hearth tasks',
  'site.skipToContent': 'Skip to content',
  'site.language': 'Language',
  'site.languageSwitch': 'Choose a language',
  'site.mainNavigation': 'Main',
  'nav.hub': 'Your Hearth account',
  'nav.signOut': 'Sign out',
  'tasks.title': 'Your tasks',
  'tasks.empty': 'No tasks here yet.',
  'tasks.filter': 'Show',
  'tasks.filterAll': 'All',
  'tasks.filterApply': 'Filter',
  'tasks.older': 'Older tasks',
  'tasks.newest': 'Newest tasks',
  'tasks.created': 'Created',
  'tasks.statusLabel': 'Status of “{title}”',
  'tasks.status': 'Status:',
  'tasks.edit': 'Edit',
  'tasks.delete': 'Delete',
  'status.pending': 'Pending',
  'status.in-progress': 'In progress',
  'status.completed': 'Completed',
  'add.title': 'Add a task',
  'field.title': 'Title',
  'field.description': 'Description (optional)',
  'add.submit': 'Add task',
  'edit.title': 'Edit task',
  'edit.submit': 'Save',
  'form.cancel': 'Cancel',
  'delete.title': 'Delete task?',
  'delete.question': '“{title}” will be deleted. This cannot be undone.',
  'delete.submit': 'Delete task',
  'notice.created': 'Task added.',
  'notice.saved': 'Task saved.',
  'notice.deleted': 'Task deleted.',
  'notice.status': 'Status of “{title}” set to: {status}.',
  'error.titleRequired': 'Give the task a title.',
  'error.invalidText': 'The title or the description is too long, or holds characters that are not text.',
  'error.notFound': 'That task does not exist, or is not yours.',
  'error.permission': 'You may not do that here.',
  'error.csrf': 'This form has expired. Reload the page and try again.',
  'error.signIn': 'Signing in with Hearth did not work. Try again.',
  'signIn.again': 'Sign in again',
  'signedOut.title': 'Signed out',
  'signedOut.text': 'You are signed out of the task manager and of Hearth.',
  'signedOut.signIn': 'Sign in with Hearth'
}

type MessageKey = keyof typeof en

const es: Record<MessageKey, string> = {
  'site.name': 'Tareas de Hearth',
  'site.skipToContent': 'Saltar al contenido',
  'site.language': 'Idioma',
  'site.languageSwitch': 'Elige un idioma',
  'site.mainNavigation': 'Principal',
  'nav.hub': 'Tu cuenta de Hearth',
  'nav.signOut': 'Cerrar sesión',
  'tasks.title': 'Tus tareas',
  'tasks.empty': 'Todavía no hay tareas aquí.',
  'tasks.filter': 'Mostrar',
  'tasks.filterAll': 'Todas',
  'tasks.filterApply': 'Filtrar',
  'tasks.older': 'Tareas anteriores',
  'tasks.newest': 'Tareas más recientes',
  'tasks.created': 'Creada el',
  'tasks.statusLabel': 'Estado de «{title}»',
  'tasks.status': 'Estado:',
  'tasks.edit': 'Editar',
  'tasks.delete': 'Eliminar',
  'status.pending': 'Pendiente',
  'status.in-progress': 'En curso',
  'status.completed': 'Completada',
  'add.title': 'Añadir una tarea',
  'field.title': 'Título',
  'field.description': 'Descripción (opcional)',
  'add.submit': 'Añadir tarea',
  'edit.title': 'Editar tarea',
  'edit.submit': 'Guardar',
  'form.cancel': 'Cancelar',
  'delete.title': '¿Eliminar la tarea?',
  'delete.question': 'Se eliminará «{title}». No se puede deshacer.',
  'delete.submit': 'Eliminar tarea',
  'notice.created': 'Tarea añadida.',
  'notice.saved': 'Tarea guardada.',
  'notice.deleted': 'Tarea eliminada.',
  'notice.status': 'Estado de «{title}» cambiado a: {status}.',
  'error.titleRequired': 'Ponle un título a la tarea.',
  'error.invalidText': 'El título o la descripción son demasiado largos o contienen caracteres que no son texto.',
  'error.notFound': 'Esa tarea no existe o no es tuya.',
  'error.permission': 'Aquí no puedes hacer eso.',
  'error.csrf': 'Este formulario ha caducado. Recarga la página e inténtalo de nuevo.',
  'error.signIn': 'No se pudo iniciar sesión con Hearth. Inténtalo de nuevo.',
  'signIn.again': 'Iniciar sesión de nuevo',
  'signedOut.title': 'Sesión cerrada',
  'signedOut.text': 'Has cerrado la sesión en el gestor de tareas y en Hearth.',
  'signedOut.signIn': 'Iniciar sesión con Hearth'
}

export type TasksTranslate = (key: MessageKey, values?: Record<string, string | number>) => string
export type TasksMessageKey = MessageKey

const translators: Record<Language, TasksTranslate> = { en: catalogueTranslator(en), es: catalogueTranslator(es) }

export function tasksTranslator(language: Language): TasksTranslate {
  return translators[language]
}

/** The notices a redirect after a form may ask the list page to show (`?notice=`). */
export const NOTICES = { created: 'notice.created', saved: 'notice.saved', deleted: 'notice.deleted' } as const satisfies Record<string, MessageKey>
