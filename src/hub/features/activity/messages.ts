import { type FeatureCatalogues, type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of the activity page and its sentences, in every page language; the kernel's own messages (layout, forms, dialog)
 * come with them through `activityTranslator`. The same keys and `{name}` placeholders in each language
 * (the type and test/hub/kernel/pages/catalogues.test.ts say so).
 */
const en = {
  'activity.title': 'Your account activity',
  'activity.intro': 'What happened in your account, newest first. It is kept for the time you choose:',
  'activity.retention': 'your privacy settings',
  'activity.none': 'Nothing recorded yet.',
  'activity.what': 'What happened',
  'activity.when': 'When',
  'activity.from': 'From',
  'activity.unknownDevice': 'an unknown device',
  'activity.older': 'Older activity',
  'activity.newest': 'Newest activity',
  'activity.event.signup': 'Created your account',
  'activity.event.signin': 'Signed in from {device}',
  'activity.event.signin.failed': 'A sign-in to your account from {device} failed',
  'activity.event.signout': 'Signed out',
  'activity.event.session.refreshed': 'Stayed signed in on {device}',
  'activity.event.session.ended': 'Signed out one of your sessions',
  'activity.event.session.ended.others': 'Signed out everywhere else ({count} sessions)',
  'activity.event.passkey.added': 'Added the passkey “{name}”',
  'activity.event.passkey.renamed': 'Renamed a passkey to “{name}”',
  'activity.event.passkey.removed': 'Removed a passkey',
  'activity.event.sso-token.issued': 'Opened {audience}',
  'activity.event.privacy.updated': 'Changed your privacy settings',
  'activity.event.consent.recorded': 'Gave your consent to {purpose}',
  'activity.event.consent.recorded.withdrawn': 'Withdrew your consent to {purpose}',
  'activity.event.export.created': 'Exported your data ({format})',
  'activity.event.account.disabled': 'An administrator disabled your account',
  'activity.event.account.enabled': 'An administrator enabled your account again',
  'activity.event.password.changed': 'Changed your password',
  'activity.event.email.change.requested': 'Asked to change your email address to {to}',
  'activity.event.email.changed': 'Changed your email address from {from} to {to}',
  'activity.event.profile.updated': 'Updated your profile',
  'activity.event.password.reset.requested': 'Asked for a link to reset your password',
  'activity.event.password.reset': 'Reset your password',
  'activity.event.email.verified': 'Confirmed your email address',
  'activity.event.account.deleted': 'Deleted your account',
  'activity.event.session.reauthenticated': 'Confirmed it was you',
  'activity.event.totp.enabled': 'Turned on two-step sign-in',
  'activity.event.totp.disabled': 'Turned off two-step sign-in',
  'activity.event.recovery-codes.regenerated': 'Made new recovery codes',
  'activity.event.recovery-code.used': 'Signed in with a recovery code ({remaining} left)',
  'activity.event.signin.second-factor.failed': 'A wrong second-step code was entered for your account',
  'activity.event.billing.plan.changed': 'Your plan is now {plan} ({status})',
  'activity.event.billing.checkout.started': 'Started subscribing to {plan}',
  'activity.event.billing.portal.opened': 'Opened billing management',
  'activity.event.billing.invoice.paid': 'Paid an invoice of {total}',
  'activity.event.billing.payment.failed': 'A payment of {total} failed'
} as const

export type ActivityMessageKey = keyof typeof en

/** Looks up this feature's messages and the kernel's in one page language. */
export type ActivityTranslate = FeatureTranslate<ActivityMessageKey>

const es: Record<ActivityMessageKey, string> = {
  'activity.title': 'Actividad de tu cuenta',
  'activity.intro': 'Lo que ha pasado en tu cuenta, de lo más reciente a lo más antiguo. Se guarda durante el tiempo que eliges:',
  'activity.retention': 'tus ajustes de privacidad',
  'activity.none': 'Todavía no hay nada registrado.',
  'activity.what': 'Qué pasó',
  'activity.when': 'Cuándo',
  'activity.from': 'Desde',
  'activity.unknownDevice': 'un dispositivo desconocido',
  'activity.older': 'Actividad anterior',
  'activity.newest': 'Actividad más reciente',
  'activity.event.signup': 'Creaste tu cuenta',
  'activity.event.signin': 'Iniciaste sesión desde {device}',
  'activity.event.signin.failed': 'Falló un intento de iniciar sesión en tu cuenta desde {device}',
  'activity.event.signout': 'Cerraste sesión',
  'activity.event.session.refreshed': 'Seguiste con la sesión iniciada en {device}',
  'activity.event.session.ended': 'Cerraste una de tus sesiones',
  'activity.event.session.ended.others': 'Cerraste sesión en todos los demás sitios ({count} sesiones)',
  'activity.event.passkey.added': 'Añadiste la llave de acceso «{name}»',
  'activity.event.passkey.renamed': 'Cambiaste el nombre de una llave de acceso a «{name}»',
  'activity.event.passkey.removed': 'Eliminaste una llave de acceso',
  'activity.event.sso-token.issued': 'Abriste {audience}',
  'activity.event.privacy.updated': 'Cambiaste tus ajustes de privacidad',
  'activity.event.consent.recorded': 'Diste tu consentimiento para {purpose}',
  'activity.event.consent.recorded.withdrawn': 'Retiraste tu consentimiento para {purpose}',
  'activity.event.export.created': 'Exportaste tus datos ({format})',
  'activity.event.account.disabled': 'Un administrador desactivó tu cuenta',
  'activity.event.account.enabled': 'Un administrador volvió a activar tu cuenta',
  'activity.event.password.changed': 'Cambiaste tu contraseña',
  'activity.event.email.change.requested': 'Pediste cambiar tu dirección de correo a {to}',
  'activity.event.email.changed': 'Cambiaste tu dirección de correo de {from} a {to}',
  'activity.event.profile.updated': 'Actualizaste tu perfil',
  'activity.event.password.reset.requested': 'Pediste un enlace para restablecer tu contraseña',
  'activity.event.password.reset': 'Restableciste tu contraseña',
  'activity.event.email.verified': 'Confirmaste tu dirección de correo',
  'activity.event.account.deleted': 'Eliminaste tu cuenta',
  'activity.event.session.reauthenticated': 'Confirmaste que eras tú',
  'activity.event.totp.enabled': 'Activaste el inicio de sesión en dos pasos',
  'activity.event.totp.disabled': 'Desactivaste el inicio de sesión en dos pasos',
  'activity.event.recovery-codes.regenerated': 'Generaste nuevos códigos de recuperación',
  'activity.event.recovery-code.used': 'Iniciaste sesión con un código de recuperación (quedan {remaining})',
  'activity.event.signin.second-factor.failed': 'Se introdujo un código de segundo paso incorrecto para tu cuenta',
  'activity.event.billing.plan.changed': 'Tu plan ahora es {plan} ({status})',
  'activity.event.billing.checkout.started': 'Empezaste a suscribirte a {plan}',
  'activity.event.billing.portal.opened': 'Abriste la gestión de pagos',
  'activity.event.billing.invoice.paid': 'Pagaste una factura de {total}',
  'activity.event.billing.payment.failed': 'Falló un pago de {total}'
}

export const ACTIVITY_MESSAGES: FeatureCatalogues<ActivityMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const activityTranslator = featureTranslator(ACTIVITY_MESSAGES)
