import { type Language, catalogueTranslator } from '../pages/language.js'

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
  'passwordReset.ignore': 'If it was not you, ignore this mail: your password stays as it is.',
  'emailVerification.subject': 'Confirm your address for Hearth',
  'emailVerification.intro': 'Confirm that {email} is the address of your Hearth account with this link:',
  'emailVerification.link': 'Confirm my address',
  'emailVerification.validity': 'The link works once, within {hours} hours.',
  'emailVerification.ignore': 'If you did not make a Hearth account, ignore this mail.',
  'passwordChanged.subject': 'Your Hearth password was changed',
  'passwordChanged.intro': 'The password of the Hearth account {email} was changed, and every session of the account was ended.',
  'passwordChanged.link': 'I did not do this: reset my password',
  'passwordChanged.ignore': 'If it was you, there is nothing more to do.',
  'passwordChanged.introInSession': 'The password of the Hearth account {email} was changed by someone signed in to it, and every other session of the account was ended.',
  'emailChange.subject': 'Confirm the new address of your Hearth account',
  'emailChange.intro': 'Someone signed in to the Hearth account {oldEmail} asked to use {newEmail} as its address from now on. If it was you, confirm with this link:',
  'emailChange.link': 'Confirm my new address',
  'emailChange.validity': 'The link works once, within {hours} hours; until it is used the account keeps its old address.',
  'emailChange.ignore': 'If it was not you, ignore this mail: nothing changes.',
  'emailChangeNotice.subject': 'A new address was asked for your Hearth account',
  'emailChangeNotice.intro': 'Someone signed in to the Hearth account {oldEmail} asked to move it to {newEmail}. The address changes only when the link mailed there is used.',
  'emailChangeNotice.link': 'I did not do this: reset my password',
  'emailChangeNotice.ignore': 'If it was you, there is nothing more to do.'
}

export type MailMessageKey = keyof typeof en

const es: Record<MailMessageKey, string> = {
  'mail.footer': 'Este correo lo ha enviado el hub de Hearth en {origin}. Sus enlaces solo llevan allí.',
  'passwordReset.subject': 'Restablece tu contraseña de Hearth',
  'passwordReset.intro': 'Alguien ha pedido restablecer la contraseña de la cuenta de Hearth {email}. Si has sido tú, elige una contraseña nueva con este enlace:',
  'passwordReset.link': 'Elegir una contraseña nueva',
  'passwordReset.validity': 'El enlace sirve una sola vez, durante {minutes} minutos.',
  'passwordReset.ignore': 'Si no has sido tú, ignora este correo: tu contraseña sigue igual.',
  'emailVerification.subject': 'Confirma tu dirección en Hearth',
  'emailVerification.intro': 'Confirma con este enlace que {email} es la dirección de tu cuenta de Hearth:',
  'emailVerification.link': 'Confirmar mi dirección',
  'emailVerification.validity': 'El enlace sirve una sola vez, durante {hours} horas.',
  'emailVerification.ignore': 'Si no has creado una cuenta de Hearth, ignora este correo.',
  'passwordChanged.subject': 'Se ha cambiado tu contraseña de Hearth',
  'passwordChanged.intro': 'Se ha cambiado la contraseña de la cuenta de Hearth {email} y se han cerrado todas sus sesiones.',
  'passwordChanged.link': 'No he sido yo: restablecer mi contraseña',
  'passwordChanged.ignore': 'Si has sido tú, no tienes que hacer nada más.',
  'passwordChanged.introInSession': 'Alguien con la sesión iniciada en la cuenta de Hearth {email} ha cambiado su contraseña, y se han cerrado todas las demás sesiones de la cuenta.',
  'emailChange.subject': 'Confirma la nueva dirección de tu cuenta de Hearth',
  'emailChange.intro': 'Alguien con la sesión iniciada en la cuenta de Hearth {oldEmail} ha pedido usar {newEmail} como su dirección a partir de ahora. Si has sido tú, confírmalo con este enlace:',
  'emailChange.link': 'Confirmar mi nueva dirección',
  'emailChange.validity': 'El enlace sirve una sola vez, durante {hours} horas; hasta que se use, la cuenta conserva su dirección anterior.',
  'emailChange.ignore': 'Si no has sido tú, ignora este correo: no cambia nada.',
  'emailChangeNotice.subject': 'Se ha pedido una nueva dirección para tu cuenta de Hearth',
  'emailChangeNotice.intro': 'Alguien con la sesión iniciada en la cuenta de Hearth {oldEmail} ha pedido cambiarla a {newEmail}. La dirección solo cambia cuando se use el enlace enviado allí.',
  'emailChangeNotice.link': 'No he sido yo: restablecer mi contraseña',
  'emailChangeNotice.ignore': 'Si has sido tú, no tienes que hacer nada más.'
}

const CATALOGUES: Record<Language, Record<MailMessageKey, string>> = { en, es }

export type MailTranslate = (key: MailMessageKey, values?: Record<string, string | number>) => string

export function mailTranslatorFor(language: Language): MailTranslate {
  return catalogueTranslator(CATALOGUES[language])
}
