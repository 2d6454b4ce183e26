import { type Catalogues, type Language, catalogueTranslator, joinedTranslators } from '../../language/language.js'
import { type MessageKey, en } from './en.js'
import { es } from './es.js'

export type { MessageKey }

/** The kernel's own page messages: the layout, navigation, sign-in pages, forms, dialog and sessions. */
export const CATALOGUES: Catalogues<MessageKey> = { en, es }

/** Looks a message up in the page's language and fills in its `{name}` placeholders. */
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string

const translators: Record<Language, Translate> = { en: catalogueTranslator(en), es: catalogueTranslator(es) }

export function translatorFor(language: Language): Translate {
  return translators[language]
}

/** A feature view's translator: the feature's messages and the kernel's. */
export type FeatureTranslate<Key extends string> = (key: MessageKey | Key, values?: Record<string, string | number>) => string

/**
 * The translator of a feature's views, by the page's language: the kernel's catalogue and the
 * feature's, joined once when the feature's module loads, never per request. A feature key the
 * kernel has already is refused then, so neither can hide the other's sentence.
 */
export function featureTranslator<Key extends string>(catalogues: Catalogues<Key>): (language: Language) => FeatureTranslate<Key> {
  return joinedTranslators(CATALOGUES, catalogues, 'messages')
}
