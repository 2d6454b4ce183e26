import { type Catalogues, type Language, catalogueTranslator, joinedTranslators } from '../language/language.js'

/**
 * The words of the mails the kernel sends (password reset, address verification, password changed,
 * new device) and the footer every mail carries, by language; `{name}` marks a value filled in when
 * rendering. Kept apart from the pages' catalogues: a mail is read away from the site, so its
 * sentences stand alone. A feature's mails keep their words in its folder (`featureMailTranslator`).
 */
const en = {
  'mail.footer': 'This mail was sent by the Hearth hub at {origin}. Links in it lead there only.',
  'newDevice.subject': 'A sign-in to your Hearth account from a new device',
  'newDevice.intro': 'Someone signed in to the Hearth account {email} from a device it had not been signed in from before.',
  'newDevice.details': 'Device: {device}. Time: {time}. IP address: {ip}.',
  'newDevice.browserOnSystem': '{browser} on {os}',
  'newDevice.unrecognised': 'not recognised',
  'newDevice.link': 'Review the sessions of my account',
  'newDevice.ignore': 'If it was you, there is nothing more to do. If not, end that session and change your password there.',
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
  'passwordChanged.firstProof':
    'The address had not been confirmed before: this reset was the first proof that it is yours, and it is confirmed now. Since anyone could have made the account with it until then, everything added to it before was removed: its passkeys, two-step sign-in with its recovery codes, and the applications allowed to sign in with it. Add again those that were yours.'
}

export type MailMessageKey = keyof typeof en

const es: Record<MailMessageKey, string> = {
  'mail.footer': 'Este correo lo ha enviado el hub de Hearth en {origin}. Sus enlaces solo llevan allí.',
  'newDevice.subject': 'Inicio de sesión en tu cuenta de Hearth desde un dispositivo nuevo',
  'newDevice.intro': 'Alguien ha iniciado sesión en la cuenta de Hearth {email} desde un dispositivo desde el que no se había entrado antes.',
  'newDevice.details': 'Dispositivo: {device}. Hora: {time}. Dirección IP: {ip}.',
  'newDevice.browserOnSystem': '{browser} en {os}',
  'newDevice.unrecognised': 'no reconocido',
  'newDevice.link': 'Revisar las sesiones de mi cuenta',
  'newDevice.ignore': 'Si has sido tú, no tienes que hacer nada más. Si no, cierra esa sesión y cambia allí tu contraseña.',
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
  'passwordChanged.firstProof':
    'La dirección no se había confirmado antes: este restablecimiento ha sido la primera prueba de que es tuya, y ya está confirmada. Como hasta ahora cualquiera podía haber creado la cuenta con ella, se ha quitado todo lo que se le había añadido: sus llaves de acceso, el inicio de sesión en dos pasos con sus códigos de recuperación y las aplicaciones autorizadas a iniciar sesión con ella. Vuelve a añadir lo que fuera tuyo.'
}

/** The kernel's mail words, one catalogue a language. */
export const MAIL_CATALOGUES: Catalogues<MailMessageKey> = { en, es }

export type MailTranslate = (key: MailMessageKey, values?: Record<string, string | number>) => string

const translators: Record<Language, MailTranslate> = { en: catalogueTranslator(en), es: catalogueTranslator(es) }

export function mailTranslatorFor(language: Language): MailTranslate {
  return translators[language]
}

/** A feature mail's translator: the feature's mail words and the kernel's (the footer among them). */
export type FeatureMailTranslate<Key extends string> = (key: MailMessageKey | Key, values?: Record<string, string | number>) => string

/**
 * The translator of a feature's mails, by the mail's language: the kernel's mail catalogue and the
 * feature's, joined once when the feature's module loads, never per mail. A feature key the kernel
 * has already is refused then, so neither can hide the other's sentence.
 */
export function featureMailTranslator<Key extends string>(catalogues: Catalogues<Key>): (language: Language) => FeatureMailTranslate<Key> {
  return joinedTranslators(MAIL_CATALOGUES, catalogues, 'mail words')
}
