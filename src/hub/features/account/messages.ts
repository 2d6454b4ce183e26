import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of the account pages: profile, address, password, the mailed links, in every page language; the kernel's own messages (layout, forms, dialog)
 * come with them through `accountTranslator`. The same keys and `{name}` placeholders in each language
 * (the type and test/hub/kernel/pages/catalogues.test.ts say so).
 */
const en = {
  'form.newPassword': 'New password',

  'forgot.title': 'Reset your password',
  'forgot.intro': 'Enter the email address of your account. We send it a link to choose a new password; the link works once, within 30 minutes.',
  'forgot.submit': 'Send the link',
  'forgot.sent': 'If {email} belongs to an account, a link is on its way to it. Check your inbox.',
  'forgot.sentToOutbox': 'If {email} belongs to an account, a link for it was written to the hub\'s outbox, not mailed: whoever runs the hub reads it with {command}',
  'forgot.backToLogin': 'Back to sign in',

  'reset.title': 'Choose a new password',
  'reset.intro': 'Every session of your account will be signed out; you then sign in with the new password.',
  'reset.linkTrouble': 'Link expired or already used?',
  'reset.askAgain': 'Ask for a new one',
  'password.change': 'Change password',
  'password.set': 'Set a password',
  'account.noPassword': 'Your account has no password: you sign in with a passkey. You may set one here, to sign in with either.',

  'link.refused': 'This link is invalid, used or expired.',
  'link.missing': 'This page needs the link from your mail. Open the link exactly as it came.',
  'link.signIn': 'Sign in',
  'link.toAccount': 'Go to your account',

  'verify.title': 'Confirm your email address',
  'verify.done': 'Your email address is confirmed.',
  'verify.signInFirst': 'Sign in to confirm your address; you come back here afterwards.',
  'confirm.title': 'Confirm your new address',
  'confirm.done': 'Your new address is confirmed. Sign in with it from now on.',
  'confirm.signInFirst': 'Sign in to the account whose address you are changing; you come back here afterwards.',
  'confirm.refused': 'This link is invalid, used or expired, or it belongs to another account than the one signed in.',

  'account.title': 'Your account',
  'account.profile': 'Profile',
  'account.userId': 'Your account’s id, should an administrator ask for it: {userId}',
  'account.displayName': 'Display name',
  'account.displayNameHint': 'Up to 64 characters. Applications see it when your profile visibility allows it.',
  'account.language': 'Language',
  'account.languageHint': 'The language of your pages and of the mails we send you. Saving it also switches this browser.',
  'account.saveProfile': 'Save profile',
  'account.address': 'Email address',
  'account.verified': 'Confirmed',
  'account.notVerified': 'Not confirmed yet',
  'account.resend': 'Send a new confirmation link',
  'account.resent': 'A new link is on its way to {email}.',
  'account.changeAddress': 'Change your address',
  'account.newAddress': 'New address',
  'account.changeAddressHint': 'We mail a link to the new address, and your address changes when you open it. Your current address is told of the change.',
  'account.changeAddressSubmit': 'Send a confirmation link',
  'account.changeAddressSent': 'A link is on its way to {email}. Your address changes once you open it.',
  'account.emailTaken': 'Another account already uses this address.',
  'account.passwordChanged': 'Your password was changed. Your other sessions were signed out.'
} as const

export type AccountMessageKey = keyof typeof en

/** Looks up this feature's messages and the kernel's in one page language. */
export type AccountTranslate = FeatureTranslate<AccountMessageKey>

const es: Record<AccountMessageKey, string> = {
  'form.newPassword': 'Contraseña nueva',

  'forgot.title': 'Restablece tu contraseña',
  'forgot.intro': 'Escribe la dirección de correo de tu cuenta. Le enviamos un enlace para elegir una contraseña nueva; el enlace sirve una vez, durante 30 minutos.',
  'forgot.submit': 'Enviar el enlace',
  'forgot.sent': 'Si {email} pertenece a una cuenta, le hemos enviado un enlace. Revisa tu bandeja de entrada.',
  'forgot.sentToOutbox': 'Si {email} pertenece a una cuenta, su enlace se escribió en la bandeja de salida del hub, sin enviarse: quien ejecuta el hub lo lee con {command}',
  'forgot.backToLogin': 'Volver a iniciar sesión',

  'reset.title': 'Elige una contraseña nueva',
  'reset.intro': 'Se cerrarán todas las sesiones de tu cuenta; después inicias sesión con la contraseña nueva.',
  'reset.linkTrouble': '¿El enlace caducó o ya se usó?',
  'reset.askAgain': 'Pide uno nuevo',
  'password.change': 'Cambiar contraseña',
  'password.set': 'Poner una contraseña',
  'account.noPassword': 'Tu cuenta no tiene contraseña: entras con una llave de acceso. Puedes poner una aquí para entrar con cualquiera de las dos.',

  'link.refused': 'Este enlace no es válido, ya se usó o caducó.',
  'link.missing': 'Esta página necesita el enlace de tu correo. Ábrelo tal como llegó.',
  'link.signIn': 'Inicia sesión',
  'link.toAccount': 'Ir a tu cuenta',

  'verify.title': 'Confirma tu dirección de correo',
  'verify.done': 'Tu dirección de correo está confirmada.',
  'verify.signInFirst': 'Inicia sesión para confirmar tu dirección; después vuelves aquí.',
  'confirm.title': 'Confirma tu nueva dirección',
  'confirm.done': 'Tu nueva dirección está confirmada. A partir de ahora, inicia sesión con ella.',
  'confirm.signInFirst': 'Inicia sesión en la cuenta cuya dirección estás cambiando; después vuelves aquí.',
  'confirm.refused': 'Este enlace no es válido, ya se usó o caducó, o es de otra cuenta distinta de la que tiene la sesión iniciada.',

  'account.title': 'Tu cuenta',
  'account.profile': 'Perfil',
  'account.userId': 'El identificador de tu cuenta, por si te lo pide quien administra el servicio: {userId}',
  'account.displayName': 'Nombre visible',
  'account.displayNameHint': 'Hasta 64 caracteres. Las aplicaciones lo ven cuando la visibilidad de tu perfil lo permite.',
  'account.language': 'Idioma',
  'account.languageHint': 'El idioma de tus páginas y de los correos que te enviamos. Al guardarlo también cambia el de este navegador.',
  'account.saveProfile': 'Guardar perfil',
  'account.address': 'Dirección de correo',
  'account.verified': 'Confirmada',
  'account.notVerified': 'Sin confirmar',
  'account.resend': 'Enviar un nuevo enlace de confirmación',
  'account.resent': 'Hemos enviado un nuevo enlace a {email}.',
  'account.changeAddress': 'Cambia tu dirección',
  'account.newAddress': 'Dirección nueva',
  'account.changeAddressHint': 'Enviamos un enlace a la dirección nueva, y tu dirección cambia cuando lo abres. Avisamos del cambio a tu dirección actual.',
  'account.changeAddressSubmit': 'Enviar un enlace de confirmación',
  'account.changeAddressSent': 'Hemos enviado un enlace a {email}. Tu dirección cambia cuando lo abras.',
  'account.emailTaken': 'Otra cuenta ya usa esta dirección.',
  'account.passwordChanged': 'Tu contraseña se cambió. Se cerraron tus otras sesiones.'
}

export const ACCOUNT_MESSAGES: Catalogues<AccountMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const accountTranslator = featureTranslator(ACCOUNT_MESSAGES)
