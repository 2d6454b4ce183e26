import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureMailTranslate, featureMailTranslator } from '../../kernel/mail/i18n.js'
import type { Language } from '../../kernel/language/language.js'

/**
 * The words of the mails two-step sign-in sends: its notices of being turned on or off and of a
 * recovery code used, in every mail language; the kernel's mail words (the footer) come with them
 * through `twoStepMailTranslator`. The same keys and `{name}` placeholders in each language (the type
 * and test/hub/kernel/mail/catalogues.test.ts say so).
 */
const en = {
  'twoStepEnabled.subject': 'Two-step sign-in is on for your Hearth account',
  'twoStepEnabled.intro': 'Two-step sign-in with an authenticator app was turned on for the Hearth account {email}: signing in now asks for a code from the app after the password.',
  'twoStepDisabled.subject': 'Two-step sign-in is off for your Hearth account',
  'twoStepDisabled.intro': 'Two-step sign-in was turned off for the Hearth account {email}: the password alone signs in again, and its recovery codes no longer work.',
  'twoStepRemoved.subject': 'An administrator turned off two-step sign-in for your Hearth account',
  'twoStepRemoved.intro': 'An administrator of this Hearth hub turned off two-step sign-in for the account {email}, as is done for someone who lost the phone with the authenticator app: the password alone signs in again, and the old recovery codes no longer work. Once signed in, you can turn it on again with a new app in your security settings.',
  'twoStepRemoved.unexpected': 'If you did not ask for this, reset your password: that ends every session of the account.',
  'recoveryCodeUsed.subject': 'A recovery code was used to sign in to your Hearth account',
  'recoveryCodeUsed.intro': 'Someone signed in to the Hearth account {email} with its password and one of its recovery codes instead of a code from the authenticator app. Recovery codes left: {remaining}.',
  'twoStep.link': 'I did not do this: reset my password',
  'twoStep.ignore': 'If it was you, there is nothing more to do. If not, reset your password: that ends every session of the account.'
}

export type TwoStepMailKey = keyof typeof en

const es: Record<TwoStepMailKey, string> = {
  'twoStepEnabled.subject': 'El inicio de sesión en dos pasos está activado en tu cuenta de Hearth',
  'twoStepEnabled.intro': 'Se ha activado el inicio de sesión en dos pasos con una aplicación de autenticación en la cuenta de Hearth {email}: ahora, después de la contraseña, se pide un código de la aplicación.',
  'twoStepDisabled.subject': 'El inicio de sesión en dos pasos está desactivado en tu cuenta de Hearth',
  'twoStepDisabled.intro': 'Se ha desactivado el inicio de sesión en dos pasos en la cuenta de Hearth {email}: la contraseña vuelve a bastar para iniciar sesión y sus códigos de recuperación ya no sirven.',
  'twoStepRemoved.subject': 'Un administrador ha desactivado el inicio de sesión en dos pasos de tu cuenta de Hearth',
  'twoStepRemoved.intro': 'Un administrador de este hub de Hearth ha desactivado el inicio de sesión en dos pasos de la cuenta {email}, como se hace con quien ha perdido el teléfono con la aplicación de autenticación: la contraseña vuelve a bastar para iniciar sesión y los códigos de recuperación anteriores ya no sirven. Cuando inicies sesión, puedes volver a activarlo con una aplicación nueva en tus ajustes de seguridad.',
  'twoStepRemoved.unexpected': 'Si no lo has pedido tú, restablece tu contraseña: así se cierran todas las sesiones de la cuenta.',
  'recoveryCodeUsed.subject': 'Se ha usado un código de recuperación para entrar en tu cuenta de Hearth',
  'recoveryCodeUsed.intro': 'Alguien ha iniciado sesión en la cuenta de Hearth {email} con su contraseña y uno de sus códigos de recuperación en lugar de un código de la aplicación de autenticación. Códigos de recuperación restantes: {remaining}.',
  'twoStep.link': 'No he sido yo: restablecer mi contraseña',
  'twoStep.ignore': 'Si has sido tú, no tienes que hacer nada más. Si no, restablece tu contraseña: así se cierran todas las sesiones de la cuenta.'
}

export const TWO_STEP_MAIL_WORDS: Catalogues<TwoStepMailKey> = { en, es }

export const twoStepMailTranslator: (language: Language) => FeatureMailTranslate<TwoStepMailKey> = featureMailTranslator(TWO_STEP_MAIL_WORDS)
