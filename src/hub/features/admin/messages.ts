import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of the console's own pages (overview, activity, queues, the confirm step) and of the
 * set-up page, in every page language; the kernel's messages come with them through `adminTranslator`.
 */
const en = {
  'admin.section.overview': 'Overview',
  'admin.section.activity': 'Activity',
  'admin.section.queues': 'Queues',

  'admin.overview.title': 'Administration',
  'admin.overview.intro': 'This hub at a glance. Each number leads to the section where it can be acted on.',
  'admin.overview.counts': 'The hub in numbers',
  'admin.overview.accounts': 'Accounts',
  'admin.overview.admins': 'Administrators',
  'admin.overview.disabled': 'Disabled accounts',
  'admin.overview.pendingInvitations': 'Pending invitations',
  'admin.overview.queuedMail': 'Mail waiting to be sent',
  'admin.overview.pendingSecurityEvents': 'Security events waiting for delivery',

  'admin.activity.title': 'Activity of every account',
  'admin.activity.intro': 'What happened in every account, newest first. Each event reads as its owner reads it on their own activity page.',
  'admin.activity.filters': 'Filter the activity',
  'admin.activity.account': 'Account (email address or id)',
  'admin.activity.type': 'Kind of event',
  'admin.activity.anyType': 'Any kind',
  'admin.activity.apply': 'Show',
  'admin.activity.clear': 'Show everything',
  'admin.activity.noAccount': 'No account has the address or id {account}.',
  'admin.activity.none': 'No activity matches.',
  'admin.activity.who': 'Account',
  'admin.activity.what': 'What happened',
  'admin.activity.when': 'When',
  'admin.activity.from': 'From',
  'admin.activity.deletedAccount': 'A deleted account',
  'admin.activity.unknownDevice': 'an unknown device',
  'admin.activity.next': 'Older activity',
  'admin.activity.newest': 'Newest activity',

  'admin.queues.title': 'Queues',
  'admin.queues.intro': 'What the hub still has to deliver. It retries on its own; this page only shows what is waiting and why.',
  'admin.queues.mail': 'Mail outbox',
  'admin.queues.mailNone': 'No mail is waiting: everything queued was sent.',
  'admin.queues.recipient': 'To',
  'admin.queues.subject': 'Subject',
  'admin.queues.status': 'Status',
  'admin.queues.waiting': 'Waiting',
  'admin.queues.failed': 'Given up',
  'admin.queues.attempts': 'Attempts',
  'admin.queues.nextAttempt': 'Next attempt',
  'admin.queues.lastError': 'Last failure',
  'admin.queues.noError': 'None',
  'admin.queues.events': 'Security events for the applications',
  'admin.queues.eventsNone': 'No security event is waiting: every application has accepted its events.',
  'admin.queues.application': 'Application',
  'admin.queues.eventType': 'Event',
  'admin.queues.subjectAccount': 'Account',
  'admin.queues.happened': 'Happened',
  'admin.queues.shown': 'The {shown} oldest of {total} are shown.',

  'admin.confirm.title': 'Confirm it is you',
  'admin.confirm.intro': 'Changes in the console need a recent sign-in. Confirm it is you, and you will go back to what you were doing.',
  'admin.confirm.password': 'Your password',
  'admin.confirm.code': 'The 6-digit code from your authenticator app',
  'admin.confirm.submit': 'Confirm',
  'admin.confirm.wrongPassword': 'That password is not right. Try again.',
  'admin.confirm.wrongCode': 'That code is not right, or was used already. Try the next one.',
  'admin.confirm.codeRequired': 'Two-step sign-in is on for this account: confirm with a code from your authenticator app.',
  'admin.confirm.tooMany': 'Too many tries. Wait a few minutes, then try again.',

  'setup.title': 'Set up this hub',
  'setup.intro': 'This hub has no administrator yet. The set-up link printed when the hub started makes one, once.',
  'setup.createIntro': 'Create the administrator’s account: its address counts as verified.',
  'setup.promoteIntro': 'You are signed in as {email}. Make this account the hub’s administrator?',
  'setup.promote': 'Make me the administrator',
  'setup.create': 'Create the administrator',
  'setup.otherAccount': 'To create a separate account for the administrator instead, sign out first and open the link again.',
  'setup.created': 'The administrator was created. Sign in with its address and password.',
  'setup.promoted': 'This account is now the hub’s administrator.',
  'setup.openConsole': 'Open the administration',
  'setup.linkRefused': 'This set-up link is not valid: it was used, replaced when the hub started again, or the hub has an administrator already.',
  'setup.linkMissing': 'This page needs the set-up link the hub printed when it started. Open that link as it was printed.'
} as const

export type AdminMessageKey = keyof typeof en

/** Looks up this feature's messages and the kernel's in one page language. */
export type AdminTranslate = FeatureTranslate<AdminMessageKey>

const es: Record<AdminMessageKey, string> = {
  'admin.section.overview': 'Resumen',
  'admin.section.activity': 'Actividad',
  'admin.section.queues': 'Colas',

  'admin.overview.title': 'Administración',
  'admin.overview.intro': 'Este hub de un vistazo. Cada número lleva a la sección donde se puede actuar.',
  'admin.overview.counts': 'El hub en números',
  'admin.overview.accounts': 'Cuentas',
  'admin.overview.admins': 'Administradores',
  'admin.overview.disabled': 'Cuentas desactivadas',
  'admin.overview.pendingInvitations': 'Invitaciones pendientes',
  'admin.overview.queuedMail': 'Correo por enviar',
  'admin.overview.pendingSecurityEvents': 'Eventos de seguridad por entregar',

  'admin.activity.title': 'Actividad de todas las cuentas',
  'admin.activity.intro': 'Lo que ha pasado en todas las cuentas, de lo más reciente a lo más antiguo. Cada evento se lee como lo lee su dueño en su propia página de actividad.',
  'admin.activity.filters': 'Filtrar la actividad',
  'admin.activity.account': 'Cuenta (dirección de correo o id)',
  'admin.activity.type': 'Tipo de evento',
  'admin.activity.anyType': 'Cualquier tipo',
  'admin.activity.apply': 'Mostrar',
  'admin.activity.clear': 'Mostrar todo',
  'admin.activity.noAccount': 'Ninguna cuenta tiene la dirección o el id {account}.',
  'admin.activity.none': 'Ninguna actividad coincide.',
  'admin.activity.who': 'Cuenta',
  'admin.activity.what': 'Qué pasó',
  'admin.activity.when': 'Cuándo',
  'admin.activity.from': 'Desde',
  'admin.activity.deletedAccount': 'Una cuenta eliminada',
  'admin.activity.unknownDevice': 'un dispositivo desconocido',
  'admin.activity.next': 'Actividad anterior',
  'admin.activity.newest': 'Actividad más reciente',

  'admin.queues.title': 'Colas',
  'admin.queues.intro': 'Lo que el hub aún tiene que entregar. Lo reintenta por sí solo; esta página solo muestra lo que espera y por qué.',
  'admin.queues.mail': 'Bandeja de salida del correo',
  'admin.queues.mailNone': 'No hay correo esperando: todo lo encolado se envió.',
  'admin.queues.recipient': 'Para',
  'admin.queues.subject': 'Asunto',
  'admin.queues.status': 'Estado',
  'admin.queues.waiting': 'Esperando',
  'admin.queues.failed': 'Abandonado',
  'admin.queues.attempts': 'Intentos',
  'admin.queues.nextAttempt': 'Próximo intento',
  'admin.queues.lastError': 'Último fallo',
  'admin.queues.noError': 'Ninguno',
  'admin.queues.events': 'Eventos de seguridad para las aplicaciones',
  'admin.queues.eventsNone': 'No hay eventos de seguridad esperando: cada aplicación aceptó los suyos.',
  'admin.queues.application': 'Aplicación',
  'admin.queues.eventType': 'Evento',
  'admin.queues.subjectAccount': 'Cuenta',
  'admin.queues.happened': 'Ocurrió',
  'admin.queues.shown': 'Se muestran los {shown} más antiguos de {total}.',

  'admin.confirm.title': 'Confirma que eres tú',
  'admin.confirm.intro': 'Los cambios en la administración necesitan un inicio de sesión reciente. Confirma que eres tú y volverás a lo que estabas haciendo.',
  'admin.confirm.password': 'Tu contraseña',
  'admin.confirm.code': 'El código de 6 dígitos de tu aplicación de autenticación',
  'admin.confirm.submit': 'Confirmar',
  'admin.confirm.wrongPassword': 'Esa contraseña no es correcta. Inténtalo de nuevo.',
  'admin.confirm.wrongCode': 'Ese código no es correcto o ya se usó. Prueba con el siguiente.',
  'admin.confirm.codeRequired': 'El inicio de sesión en dos pasos está activado en esta cuenta: confirma con un código de tu aplicación de autenticación.',
  'admin.confirm.tooMany': 'Demasiados intentos. Espera unos minutos y vuelve a intentarlo.',

  'setup.title': 'Configurar este hub',
  'setup.intro': 'Este hub aún no tiene administrador. El enlace de configuración que se imprimió al arrancar el hub crea uno, una sola vez.',
  'setup.createIntro': 'Crea la cuenta del administrador: su dirección cuenta como verificada.',
  'setup.promoteIntro': 'Has iniciado sesión como {email}. ¿Hacer de esta cuenta la administradora del hub?',
  'setup.promote': 'Hacerme administrador',
  'setup.create': 'Crear el administrador',
  'setup.otherAccount': 'Para crear otra cuenta para el administrador, cierra sesión primero y vuelve a abrir el enlace.',
  'setup.created': 'Se creó el administrador. Inicia sesión con su dirección y su contraseña.',
  'setup.promoted': 'Esta cuenta es ahora la administradora del hub.',
  'setup.openConsole': 'Abrir la administración',
  'setup.linkRefused': 'Este enlace de configuración no es válido: ya se usó, se reemplazó al volver a arrancar el hub o el hub ya tiene administrador.',
  'setup.linkMissing': 'Esta página necesita el enlace de configuración que el hub imprimió al arrancar. Ábrelo tal como se imprimió.'
}

export const ADMIN_MESSAGES: Catalogues<AdminMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const adminTranslator = featureTranslator(ADMIN_MESSAGES)
