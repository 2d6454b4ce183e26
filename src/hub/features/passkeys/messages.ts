import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of passkeys: their section, the login form and the dialog's way, in every page language; the kernel's own messages (layout, forms, dialog)
 * come with them through `passkeysTranslator`. The same keys and `{name}` placeholders in each language
 * (the type and test/hub/kernel/pages/catalogues.test.ts say so).
 */
const en = {
  'passkeys.heading': 'Passkeys',
  'passkeys.intro': 'A passkey signs you in without your password, with your fingerprint, face or screen lock.',
  'passkeys.none': 'You have no passkey yet.',
  'passkeys.name': 'Name',
  'passkeys.created': 'Added',
  'passkeys.lastUsed': 'Last used',
  'passkeys.neverUsed': 'Never',
  'passkeys.renameLabel': 'New name for {name}',
  'passkeys.rename': 'Rename',
  'passkeys.remove': 'Remove',
  'passkeys.detail': '({name})',
  'passkeys.add': 'Add a passkey',
  'passkeys.newName': 'Name (optional)',
  'passkeys.newNameHint': 'Something that tells you where it is, such as “Work laptop”. Without one it is named after its provider.',
  'passkeys.addSubmit': 'Create the passkey',
  'passkeys.unsupported': 'This browser cannot use passkeys.',
  'passkeys.cancelled': 'The passkey prompt was closed or timed out; nothing was changed.',
  'passkeys.taken': 'This passkey is registered already.',
  'reauth.passkey': 'Use a passkey',
  'login.passkeyIntro': 'Or, without your password:',
  'login.passkey': 'Sign in with a passkey',
  'login.passkeyRefused': 'The passkey was not accepted.'
} as const

export type PasskeysMessageKey = keyof typeof en

/** Looks up this feature's messages and the kernel's in one page language. */
export type PasskeysTranslate = FeatureTranslate<PasskeysMessageKey>

const es: Record<PasskeysMessageKey, string> = {
  'passkeys.heading': 'Llaves de acceso',
  'passkeys.intro': 'Una llave de acceso te permite iniciar sesión sin contraseña, con tu huella, tu cara o el bloqueo de pantalla.',
  'passkeys.none': 'Todavía no tienes ninguna llave de acceso.',
  'passkeys.name': 'Nombre',
  'passkeys.created': 'Añadida',
  'passkeys.lastUsed': 'Último uso',
  'passkeys.neverUsed': 'Nunca',
  'passkeys.renameLabel': 'Nombre nuevo para {name}',
  'passkeys.rename': 'Cambiar nombre',
  'passkeys.remove': 'Quitar',
  'passkeys.detail': '({name})',
  'passkeys.add': 'Añadir una llave de acceso',
  'passkeys.newName': 'Nombre (opcional)',
  'passkeys.newNameHint': 'Algo que te diga dónde está, como «Portátil del trabajo». Sin él, recibe el nombre de su proveedor.',
  'passkeys.addSubmit': 'Crear la llave de acceso',
  'passkeys.unsupported': 'Este navegador no puede usar llaves de acceso.',
  'passkeys.cancelled': 'Se cerró el aviso de la llave de acceso o se agotó el tiempo; no se cambió nada.',
  'passkeys.taken': 'Esta llave de acceso ya está registrada.',
  'reauth.passkey': 'Usar una llave de acceso',
  'login.passkeyIntro': 'O, sin tu contraseña:',
  'login.passkey': 'Iniciar sesión con una llave de acceso',
  'login.passkeyRefused': 'No se aceptó la llave de acceso.'
}

export const PASSKEYS_MESSAGES: Catalogues<PasskeysMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const passkeysTranslator = featureTranslator(PASSKEYS_MESSAGES)
