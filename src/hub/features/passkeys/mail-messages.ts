import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureMailTranslate, featureMailTranslator } from '../../kernel/mail/i18n.js'
import type { Language } from '../../kernel/language/language.js'

/**
 * The words of the mails passkeys send: the notice that a passkey was added, in every mail language;
 * the kernel's mail words (the footer) come with them through `passkeysMailTranslator`. The same keys
 * and `{name}` placeholders in each language (the type and test/hub/kernel/mail/catalogues.test.ts say
 * so).
 */
const en = {
  'passkeyAdded.subject': 'A passkey was added to your Hearth account',
  'passkeyAdded.intro': 'Someone signed in to the Hearth account {email} added a passkey named "{name}". It signs in to the account without the password.',
  'passkeyAdded.link': 'Review the passkeys of my account',
  'passkeyAdded.ignore': 'If it was you, there is nothing more to do. If not, remove that passkey and reset your password.'
}

export type PasskeysMailKey = keyof typeof en

const es: Record<PasskeysMailKey, string> = {
  'passkeyAdded.subject': 'Se ha añadido una llave de acceso a tu cuenta de Hearth',
  'passkeyAdded.intro': 'Alguien con la sesión iniciada en la cuenta de Hearth {email} ha añadido una llave de acceso llamada «{name}». Con ella se entra en la cuenta sin la contraseña.',
  'passkeyAdded.link': 'Revisar las llaves de acceso de mi cuenta',
  'passkeyAdded.ignore': 'Si has sido tú, no tienes que hacer nada más. Si no, elimina esa llave de acceso y restablece tu contraseña.'
}

export const PASSKEYS_MAIL_WORDS: Catalogues<PasskeysMailKey> = { en, es }

export const passkeysMailTranslator: (language: Language) => FeatureMailTranslate<PasskeysMailKey> = featureMailTranslator(PASSKEYS_MAIL_WORDS)
