import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureMailTranslate, featureMailTranslator } from '../../kernel/mail/i18n.js'
import type { Language } from '../../kernel/language/language.js'

/**
 * The words of the mails deletion sends: the confirmation that an account was deleted, in every mail
 * language; the kernel's mail words (the footer) come with them through `deletionMailTranslator`. The
 * same keys and `{name}` placeholders in each language (the type and
 * test/hub/kernel/mail/catalogues.test.ts say so).
 */
const en = {
  'accountDeleted.subject': 'Your Hearth account was deleted',
  'accountDeleted.intro': 'The Hearth account {email} was deleted, and every session of it ended. The hub has erased what it held about you, and the applications of the family are told to erase theirs.',
  'accountDeleted.kept': 'Only a note that an account was deleted, and when, is kept for security; it holds neither this address nor anything else about you.',
  'accountDeleted.link': 'Make a new account'
}

export type DeletionMailKey = keyof typeof en

const es: Record<DeletionMailKey, string> = {
  'accountDeleted.subject': 'Se ha eliminado tu cuenta de Hearth',
  'accountDeleted.intro': 'Se ha eliminado la cuenta de Hearth {email} y se han cerrado todas sus sesiones. El hub ha borrado lo que guardaba sobre ti, y se ha pedido a las aplicaciones de la familia que borren lo suyo.',
  'accountDeleted.kept': 'Por seguridad solo se guarda una nota de que se eliminó una cuenta, y cuándo; no contiene esta dirección ni nada más sobre ti.',
  'accountDeleted.link': 'Crear una cuenta nueva'
}

export const DELETION_MAIL_WORDS: Catalogues<DeletionMailKey> = { en, es }

export const deletionMailTranslator: (language: Language) => FeatureMailTranslate<DeletionMailKey> = featureMailTranslator(DELETION_MAIL_WORDS)
