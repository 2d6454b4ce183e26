import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of the privacy page, in every page language; the kernel's own messages (layout, forms, dialog)
 * come with them through `privacyTranslator`. The same keys and `{name}` placeholders in each language
 * (the type and test/hub/kernel/pages/catalogues.test.ts say so).
 */
const en = {
  'privacy.title': 'Privacy',
  'privacy.settings': 'Privacy settings',
  'privacy.lastSaved': 'Last saved {date}',
  'privacy.neverSaved': 'You have not changed anything yet: these are the most private defaults.',
  'privacy.dataSharing': 'Share my data with',
  'privacy.cookies': 'Cookies',
  'privacy.cookie.necessary': 'Necessary (always on)',
  'privacy.cookie.functional': 'Functional',
  'privacy.cookie.analytics': 'Analytics',
  'privacy.cookie.marketing': 'Marketing',
  'privacy.retention': 'Keep my activity log for (days, {min} to {max})',
  'privacy.visibility': 'Who can see my profile',
  'privacy.visibility.private': 'Only me',
  'privacy.visibility.family': 'The Hearth family of applications',
  'privacy.visibility.public': 'Everyone',
  'privacy.save': 'Save settings',
  'privacy.consents': 'Consent',
  'privacy.consentsIntro': 'Your current decision for each purpose. Changing one records a new decision; nothing is ever erased.',
  'privacy.purpose': 'Purpose',
  'privacy.decision': 'Decision',
  'privacy.granted': 'Granted',
  'privacy.withdrawn': 'Not granted',
  'privacy.grant': 'Grant {purpose}',
  'privacy.withdraw': 'Withdraw {purpose}',
  'privacy.history': 'History',
  'privacy.noHistory': 'No decision recorded yet.',
  'privacy.recordedAt': 'Recorded',
  'privacy.version': 'Policy version'
} as const

export type PrivacyMessageKey = keyof typeof en

/** Looks up this feature's messages and the kernel's in one page language. */
export type PrivacyTranslate = FeatureTranslate<PrivacyMessageKey>

const es: Record<PrivacyMessageKey, string> = {
  'privacy.title': 'Privacidad',
  'privacy.settings': 'Ajustes de privacidad',
  'privacy.lastSaved': 'Guardado por última vez el {date}',
  'privacy.neverSaved': 'Aún no has cambiado nada: estos son los valores más privados.',
  'privacy.dataSharing': 'Compartir mis datos con',
  'privacy.cookies': 'Cookies',
  'privacy.cookie.necessary': 'Necesarias (siempre activas)',
  'privacy.cookie.functional': 'Funcionales',
  'privacy.cookie.analytics': 'Analíticas',
  'privacy.cookie.marketing': 'De marketing',
  'privacy.retention': 'Conservar mi registro de actividad durante (días, de {min} a {max})',
  'privacy.visibility': 'Quién puede ver mi perfil',
  'privacy.visibility.private': 'Solo yo',
  'privacy.visibility.family': 'Las aplicaciones de la familia Hearth',
  'privacy.visibility.public': 'Todo el mundo',
  'privacy.save': 'Guardar ajustes',
  'privacy.consents': 'Consentimiento',
  'privacy.consentsIntro': 'Tu decisión actual para cada finalidad. Cambiarla registra una decisión nueva; nunca se borra nada.',
  'privacy.purpose': 'Finalidad',
  'privacy.decision': 'Decisión',
  'privacy.granted': 'Concedido',
  'privacy.withdrawn': 'No concedido',
  'privacy.grant': 'Conceder {purpose}',
  'privacy.withdraw': 'Retirar {purpose}',
  'privacy.history': 'Historial',
  'privacy.noHistory': 'Todavía no hay ninguna decisión registrada.',
  'privacy.recordedAt': 'Registrado',
  'privacy.version': 'Versión de la política'
}

export const PRIVACY_MESSAGES: Catalogues<PrivacyMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const privacyTranslator = featureTranslator(PRIVACY_MESSAGES)
