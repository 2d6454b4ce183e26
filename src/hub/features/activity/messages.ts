import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

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
  'activity.newest': 'Newest activity'
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
  'activity.newest': 'Actividad más reciente'
}

export const ACTIVITY_MESSAGES: Catalogues<ActivityMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const activityTranslator = featureTranslator(ACTIVITY_MESSAGES)
