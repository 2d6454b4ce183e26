import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of two-step sign-in: its section, its login and dialog forms, the recovery codes, in every page language; the kernel's own messages (layout, forms, dialog)
 * come with them through `twoStepTranslator`. The same keys and `{name}` placeholders in each language
 * (the type and test/hub/kernel/pages/catalogues.test.ts say so).
 */
const en = {
  'totp.heading': 'Two-step sign-in',
  'totp.off': 'Two-step sign-in is off. Turn it on and signing in with your password also asks for a code from an authenticator app on your phone.',
  'totp.on': 'Two-step sign-in is on: signing in with your password also asks for a code from your authenticator app.',
  'totp.codesLeft': 'Recovery codes left: {count}.',
  'totp.begin': 'Set up two-step sign-in',
  'totp.regenerate': 'Make new recovery codes',
  'totp.disable': 'Turn off two-step sign-in',
  'totp.enabled': 'Two-step sign-in is on.',
  'totp.scanHeading': 'Scan this code with your authenticator app',
  'totp.qrAlt': 'QR code that adds your Hearth account to an authenticator app',
  'totp.manualEntry': 'Cannot scan it? Type this key into the app:',
  'totp.code': 'Code from the app',
  'totp.codeHint': 'The 6 digits the app shows for Hearth now.',
  'totp.confirm': 'Turn on two-step sign-in',
  'totp.wrongCode': 'That code is not right. Check that your phone shows the right time, and type the newest code.',
  'totp.changedElsewhere': 'Two-step sign-in was changed in another window. Reload this page to see it as it is now.',
  'recovery.heading': 'Your recovery codes',
  'recovery.intro': 'If you lose your phone, each of these codes signs you in once instead of a code from the app. They are shown only now: keep them somewhere safe.',
  'recovery.copyHint': 'Download them, or select the list and copy it into your password manager.',
  'recovery.download': 'Download as a text file',
  'recovery.done': 'I have saved them',
  'recovery.fileHeading': 'Hearth recovery codes. Each works once.',
  'reauth.code': 'Code from your authenticator app',
  'reauth.confirmCode': 'Confirm with the code',
  'secondStep.heading': 'Two-step sign-in',
  'secondStep.intro': 'Type the code your authenticator app shows for Hearth.',
  'secondStep.code': 'Code',
  'secondStep.recoveryIntro': 'Type one of your recovery codes. Each works once.',
  'secondStep.recoveryCode': 'Recovery code',
  'secondStep.submit': 'Continue',
  'secondStep.useRecoveryCode': 'Use a recovery code instead',
  'secondStep.useCode': 'Use a code from the app instead',
  'secondStep.wrongCode': 'That code is not right.',
  'secondStep.wrongRecoveryCode': 'That recovery code is wrong or was used already.',
  'secondStep.expired': 'This sign-in expired. Sign in with your password again.'
} as const

export type TwoStepMessageKey = keyof typeof en

/** Looks up this feature's messages and the kernel's in one page language. */
export type TwoStepTranslate = FeatureTranslate<TwoStepMessageKey>

const es: Record<TwoStepMessageKey, string> = {
  'totp.heading': 'Verificación en dos pasos',
  'totp.off': 'La verificación en dos pasos está desactivada. Actívala y, al iniciar sesión con tu contraseña, también se te pedirá un código de una aplicación de autenticación en tu teléfono.',
  'totp.on': 'La verificación en dos pasos está activada: al iniciar sesión con tu contraseña también se te pide un código de tu aplicación de autenticación.',
  'totp.codesLeft': 'Códigos de recuperación restantes: {count}.',
  'totp.begin': 'Configurar la verificación en dos pasos',
  'totp.regenerate': 'Crear códigos de recuperación nuevos',
  'totp.disable': 'Desactivar la verificación en dos pasos',
  'totp.enabled': 'La verificación en dos pasos está activada.',
  'totp.scanHeading': 'Escanea este código con tu aplicación de autenticación',
  'totp.qrAlt': 'Código QR que añade tu cuenta de Hearth a una aplicación de autenticación',
  'totp.manualEntry': '¿No puedes escanearlo? Escribe esta clave en la aplicación:',
  'totp.code': 'Código de la aplicación',
  'totp.codeHint': 'Los 6 dígitos que la aplicación muestra ahora para Hearth.',
  'totp.confirm': 'Activar la verificación en dos pasos',
  'totp.wrongCode': 'Ese código no es correcto. Comprueba que tu teléfono tiene la hora correcta y escribe el código más reciente.',
  'totp.changedElsewhere': 'La verificación en dos pasos se cambió en otra ventana. Vuelve a cargar esta página para verla como está ahora.',
  'recovery.heading': 'Tus códigos de recuperación',
  'recovery.intro': 'Si pierdes tu teléfono, cada uno de estos códigos te permite iniciar sesión una vez en lugar de un código de la aplicación. Solo se muestran ahora: guárdalos en un lugar seguro.',
  'recovery.copyHint': 'Descárgalos, o selecciona la lista y cópiala en tu gestor de contraseñas.',
  'recovery.download': 'Descargar como archivo de texto',
  'recovery.done': 'Ya los he guardado',
  'recovery.fileHeading': 'Códigos de recuperación de Hearth. Cada uno sirve una vez.',
  'reauth.code': 'Código de tu aplicación de autenticación',
  'reauth.confirmCode': 'Confirmar con el código',
  'secondStep.heading': 'Verificación en dos pasos',
  'secondStep.intro': 'Escribe el código que tu aplicación de autenticación muestra para Hearth.',
  'secondStep.code': 'Código',
  'secondStep.recoveryIntro': 'Escribe uno de tus códigos de recuperación. Cada uno sirve una vez.',
  'secondStep.recoveryCode': 'Código de recuperación',
  'secondStep.submit': 'Continuar',
  'secondStep.useRecoveryCode': 'Usar un código de recuperación',
  'secondStep.useCode': 'Usar un código de la aplicación',
  'secondStep.wrongCode': 'Ese código no es correcto.',
  'secondStep.wrongRecoveryCode': 'Ese código de recuperación no es correcto o ya se usó.',
  'secondStep.expired': 'Este inicio de sesión caducó. Vuelve a iniciar sesión con tu contraseña.'
}

export const TWO_STEP_MESSAGES: Catalogues<TwoStepMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const twoStepTranslator = featureTranslator(TWO_STEP_MESSAGES)
