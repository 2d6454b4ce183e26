import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of the export page, in every page language; the kernel's own messages (layout, forms, dialog)
 * come with them through `exportTranslator`. The same keys and `{name}` placeholders in each language
 * (the type and test/hub/kernel/pages/catalogues.test.ts say so).
 */
const en = {
  'export.title': 'Export your data',
  'export.intro': 'Download everything the hub keeps about you. An export holds:',
  'export.json': 'Download JSON',
  'export.csv': 'Download CSV',
  'export.limit': 'At most 10 exports an hour.',
  'export.applications': "What the family's applications keep about you, such as your tasks ({applications}); one that does not answer within 5 seconds is named as unavailable",
  'export.dataset.account': 'Your account: id, email, when it was created',
  'export.dataset.sessions': 'Your sessions, without their secrets',
  'export.dataset.privacySettings': 'Your privacy settings',
  'export.dataset.consents': 'Every consent decision you recorded',
  'export.dataset.accessGrants': 'The applications you may use and with which permissions',
  'export.dataset.auditTrail': 'Your security activity: sign-ins, sign-outs, changes, exports',
  'export.dataset.billing': 'Your billing: subscription, Stripe customer and invoices (never card data: Hearth holds none)'
} as const

export type ExportMessageKey = keyof typeof en

/** Looks up this feature's messages and the kernel's in one page language. */
export type ExportTranslate = FeatureTranslate<ExportMessageKey>

const es: Record<ExportMessageKey, string> = {
  'export.title': 'Exporta tus datos',
  'export.intro': 'Descarga todo lo que el servicio guarda sobre ti. Una exportación contiene:',
  'export.json': 'Descargar JSON',
  'export.csv': 'Descargar CSV',
  'export.limit': 'Como máximo 10 exportaciones por hora.',
  'export.applications': 'Lo que las aplicaciones de la familia guardan sobre ti, como tus tareas ({applications}); la que no responda en 5 segundos figura como no disponible',
  'export.dataset.account': 'Tu cuenta: identificador, correo y fecha de creación',
  'export.dataset.sessions': 'Tus sesiones, sin sus secretos',
  'export.dataset.privacySettings': 'Tus ajustes de privacidad',
  'export.dataset.consents': 'Todas las decisiones de consentimiento que registraste',
  'export.dataset.accessGrants': 'Las aplicaciones que puedes usar y con qué permisos',
  'export.dataset.auditTrail': 'Tu actividad de seguridad: inicios y cierres de sesión, cambios, exportaciones',
  'export.dataset.billing': 'Tu facturación: suscripción, cliente de Stripe y facturas (nunca datos de tarjeta: Hearth no los guarda)'
}

/** Whether the export's catalogue has this key (a dataset's label, say). */
export const isExportMessageKey = (key: string): key is ExportMessageKey => Object.hasOwn(en, key)

export const EXPORT_MESSAGES: Catalogues<ExportMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const exportTranslator = featureTranslator(EXPORT_MESSAGES)
