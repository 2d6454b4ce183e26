import type { Language } from '../pages/language.js'

/**
 * Every piece of text the hub's mails carry, by language; `{name}` marks a value filled in when
 * rendering. Kept apart from the pages' catalogues: a mail is read away from the site, so its
 * sentences stand alone.
 */
const en = {
  'mail.footer': 'This mail was sent by the Hearth hub at {origin}. Links in it lead there only.',
  'passwordReset.subject': 'Reset your Hearth password',
  'passwordReset.intro': 'Someone asked to reset the password of the Hearth account {email}. If it was you, choose a new password with this link:',
  'passwordReset.link': 'Choose a new password',
  'passwordReset.validity': 'The link works once, within {minutes} minutes.',
  'passwordReset.ignore': 'If it was not you, ignore this mail: your password stays as it is.'
}

export type MailMessageKey = keyof typeof en

const es: Record<MailMessageKey, string> = {
  'mail.footer': 'Este correo lo ha enviado el hub de Hearth en {origin}. Sus enlaces solo llevan allí.',
  'passwordReset.subject': 'Restablece tu contraseña de Hearth',
  'passwordReset.intro': 'Alguien ha pedido restablecer la contraseña de la cuenta de Hearth {email}. Si has sido tú, elige una contraseña nueva con este enlace:',
  'passwordReset.link': 'Elegir una contraseña nueva',
  'passwordReset.validity': 'El enlace sirve una sola vez, durante {minutes} minutos.',
  'passwordReset.ignore': 'Si no has sido tú, ignora este correo: tu contraseña sigue igual.'
}

const CATALOGUES: Record<Language, Record<MailMessageKey, string>> = { en, es }

export type MailTranslate = (key: MailMessageKey, values?: Record<string, string | number>) => string

export function mailTranslatorFor(language: Language): MailTranslate {
  const catalogue = CATALOGUES[language]
  return (key, values = {}) => catalogue[key].replace(/\{(\w+)\}/g, (placeholder, name: string) => String(values[name] ?? placeholder))
}
