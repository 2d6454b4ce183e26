import { type Language, catalogueTranslator } from '../language/language.js'

/**
 * Every piece of text the hub's mails carry, by language; `{name}` marks a value filled in when
 * rendering. Kept apart from the pages' catalogues: a mail is read away from the site, so its
 * sentences stand alone.
 */
const en = {
  'mail.footer': 'This mail was sent by the Hearth hub at {origin}. Links in it lead there only.',
  'passkeyAdded.subject': 'A passkey was added to your Hearth account',
  'passkeyAdded.intro': 'Someone signed in to the Hearth account {email} added a passkey named "{name}". It signs in to the account without the password.',
  'passkeyAdded.link': 'Review the passkeys of my account',
  'passkeyAdded.ignore': 'If it was you, there is nothing more to do. If not, remove that passkey and reset your password.',
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
  'passwordChanged.introInSession': 'The password of the Hearth account {email} was changed by someone signed in to it, and every other session of the account was ended.',
  'passwordChanged.firstProof':
    'The address had not been confirmed before: this reset was the first proof that it is yours, and it is confirmed now. Since anyone could have made the account with it until then, everything added to it before was removed: its passkeys, two-step sign-in with its recovery codes, and the applications allowed to sign in with it. Add again those that were yours.',
  'emailChange.subject': 'Confirm the new address of your Hearth account',
  'emailChange.intro': 'Someone signed in to the Hearth account {oldEmail} asked to use {newEmail} as its address from now on. If it was you, confirm with this link:',
  'emailChange.link': 'Confirm my new address',
  'emailChange.validity': 'The link works once, within {hours} hours; until it is used the account keeps its old address.',
  'emailChange.ignore': 'If it was not you, ignore this mail: nothing changes.',
  'emailChangeNotice.subject': 'A new address was asked for your Hearth account',
  'emailChangeNotice.intro': 'Someone signed in to the Hearth account {oldEmail} asked to move it to {newEmail}. The address changes only when the link mailed there is used.',
  'emailChangeNotice.link': 'I did not do this: reset my password',
  'emailChangeNotice.ignore': 'If it was you, there is nothing more to do.',
  'accountDeleted.subject': 'Your Hearth account was deleted',
  'accountDeleted.intro': 'The Hearth account {email} was deleted, and every session of it ended. The hub has erased what it held about you, and the applications of the family are told to erase theirs.',
  'accountDeleted.kept': 'Only a note that an account was deleted, and when, is kept for security; it holds neither this address nor anything else about you.',
  'accountDeleted.link': 'Make a new account',
  'twoStepEnabled.subject': 'Two-step sign-in is on for your Hearth account',
  'twoStepEnabled.intro': 'Two-step sign-in with an authenticator app was turned on for the Hearth account {email}: signing in now asks for a code from the app after the password.',
  'twoStepDisabled.subject': 'Two-step sign-in is off for your Hearth account',
  'twoStepDisabled.intro': 'Two-step sign-in was turned off for the Hearth account {email}: the password alone signs in again, and its recovery codes no longer work.',
  'recoveryCodeUsed.subject': 'A recovery code was used to sign in to your Hearth account',
  'recoveryCodeUsed.intro': 'Someone signed in to the Hearth account {email} with its password and one of its recovery codes instead of a code from the authenticator app. Recovery codes left: {remaining}.',
  'twoStep.link': 'I did not do this: reset my password',
  'twoStep.ignore': 'If it was you, there is nothing more to do. If not, reset your password: that ends every session of the account.',
  'paymentFailed.subject': 'A payment for your Hearth plan did not go through',
  'paymentFailed.intro': 'The payment of {total} for the plan of the Hearth account {email} did not go through. Stripe, which takes the payments, will try again.',
  'paymentFailed.grace': 'Your plan stays as it is for a few days meanwhile. To keep it, sign in and choose "Manage billing" to check or change your payment method at Stripe:',
  'paymentFailed.link': 'Go to my billing page',
  'paymentFailed.ignore': 'Hearth never sees your card: payment details are only ever entered at Stripe.'
}

export type MailMessageKey = keyof typeof en

const es: Record<MailMessageKey, string> = {
  'mail.footer': 'Este correo lo ha enviado el hub de Hearth en {origin}. Sus enlaces solo llevan allí.',
  'passkeyAdded.subject': 'Se ha añadido una llave de acceso a tu cuenta de Hearth',
  'passkeyAdded.intro': 'Alguien con la sesión iniciada en la cuenta de Hearth {email} ha añadido una llave de acceso llamada «{name}». Con ella se entra en la cuenta sin la contraseña.',
  'passkeyAdded.link': 'Revisar las llaves de acceso de mi cuenta',
  'passkeyAdded.ignore': 'Si has sido tú, no tienes que hacer nada más. Si no, elimina esa llave de acceso y restablece tu contraseña.',
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
  'passwordChanged.introInSession': 'Alguien con la sesión iniciada en la cuenta de Hearth {email} ha cambiado su contraseña, y se han cerrado todas las demás sesiones de la cuenta.',
  'passwordChanged.firstProof':
    'La dirección no se había confirmado antes: este restablecimiento ha sido la primera prueba de que es tuya, y ya está confirmada. Como hasta ahora cualquiera podía haber creado la cuenta con ella, se ha quitado todo lo que se le había añadido: sus llaves de acceso, el inicio de sesión en dos pasos con sus códigos de recuperación y las aplicaciones autorizadas a iniciar sesión con ella. Vuelve a añadir lo que fuera tuyo.',
  'emailChange.subject': 'Confirma la nueva dirección de tu cuenta de Hearth',
  'emailChange.intro': 'Alguien con la sesión iniciada en la cuenta de Hearth {oldEmail} ha pedido usar {newEmail} como su dirección a partir de ahora. Si has sido tú, confírmalo con este enlace:',
  'emailChange.link': 'Confirmar mi nueva dirección',
  'emailChange.validity': 'El enlace sirve una sola vez, durante {hours} horas; hasta que se use, la cuenta conserva su dirección anterior.',
  'emailChange.ignore': 'Si no has sido tú, ignora este correo: no cambia nada.',
  'emailChangeNotice.subject': 'Se ha pedido una nueva dirección para tu cuenta de Hearth',
  'emailChangeNotice.intro': 'Alguien con la sesión iniciada en la cuenta de Hearth {oldEmail} ha pedido cambiarla a {newEmail}. La dirección solo cambia cuando se use el enlace enviado allí.',
  'emailChangeNotice.link': 'No he sido yo: restablecer mi contraseña',
  'emailChangeNotice.ignore': 'Si has sido tú, no tienes que hacer nada más.',
  'accountDeleted.subject': 'Se ha eliminado tu cuenta de Hearth',
  'accountDeleted.intro': 'Se ha eliminado la cuenta de Hearth {email} y se han cerrado todas sus sesiones. El hub ha borrado lo que guardaba sobre ti, y se ha pedido a las aplicaciones de la familia que borren lo suyo.',
  'accountDeleted.kept': 'Por seguridad solo se guarda una nota de que se eliminó una cuenta, y cuándo; no contiene esta dirección ni nada más sobre ti.',
  'accountDeleted.link': 'Crear una cuenta nueva',
  'twoStepEnabled.subject': 'El inicio de sesión en dos pasos está activado en tu cuenta de Hearth',
  'twoStepEnabled.intro': 'Se ha activado el inicio de sesión en dos pasos con una aplicación de autenticación en la cuenta de Hearth {email}: ahora, después de la contraseña, se pide un código de la aplicación.',
  'twoStepDisabled.subject': 'El inicio de sesión en dos pasos está desactivado en tu cuenta de Hearth',
  'twoStepDisabled.intro': 'Se ha desactivado el inicio de sesión en dos pasos en la cuenta de Hearth {email}: la contraseña vuelve a bastar para iniciar sesión y sus códigos de recuperación ya no sirven.',
  'recoveryCodeUsed.subject': 'Se ha usado un código de recuperación para entrar en tu cuenta de Hearth',
  'recoveryCodeUsed.intro': 'Alguien ha iniciado sesión en la cuenta de Hearth {email} con su contraseña y uno de sus códigos de recuperación en lugar de un código de la aplicación de autenticación. Códigos de recuperación restantes: {remaining}.',
  'twoStep.link': 'No he sido yo: restablecer mi contraseña',
  'twoStep.ignore': 'Si has sido tú, no tienes que hacer nada más. Si no, restablece tu contraseña: así se cierran todas las sesiones de la cuenta.',
  'paymentFailed.subject': 'No se ha podido cobrar un pago de tu plan de Hearth',
  'paymentFailed.intro': 'No se ha podido cobrar el pago de {total} del plan de la cuenta de Hearth {email}. Stripe, que gestiona los pagos, volverá a intentarlo.',
  'paymentFailed.grace': 'Mientras tanto tu plan sigue igual durante unos días. Para conservarlo, inicia sesión y elige «Gestionar la facturación» para revisar o cambiar tu método de pago en Stripe:',
  'paymentFailed.link': 'Ir a mi página de facturación',
  'paymentFailed.ignore': 'Hearth nunca ve tu tarjeta: los datos de pago solo se introducen en Stripe.'
}

const CATALOGUES: Record<Language, Record<MailMessageKey, string>> = { en, es }

export type MailTranslate = (key: MailMessageKey, values?: Record<string, string | number>) => string

export function mailTranslatorFor(language: Language): MailTranslate {
  return catalogueTranslator(CATALOGUES[language])
}
