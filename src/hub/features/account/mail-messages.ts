import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureMailTranslate, featureMailTranslator } from '../../kernel/mail/i18n.js'
import type { Language } from '../../kernel/language/language.js'

/**
 * The words of the mails the account page sends: the notice of a password changed in a session and the
 * two mails of a move to a new address, in every mail language; the kernel's mail words (the footer)
 * come with them through `accountMailTranslator`. The same keys and `{name}` placeholders in each
 * language (the type and test/hub/kernel/mail/catalogues.test.ts say so).
 */
const en = {
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

export type AccountMailKey = keyof typeof en

const es: Record<AccountMailKey, string> = {
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

export const ACCOUNT_MAIL_WORDS: Catalogues<AccountMailKey> = { en, es }

export const accountMailTranslator: (language: Language) => FeatureMailTranslate<AccountMailKey> = featureMailTranslator(ACCOUNT_MAIL_WORDS)
