import { type Language, catalogueTranslator } from '../../language/language.js'
import { type MessageKey, en } from './en.js'
import { es } from './es.js'

export type { MessageKey }

export const CATALOGUES: Record<Language, Record<MessageKey, string>> = { en, es }

/** Looks a message up in the page's language and fills in its `{name}` placeholders. */
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string

export function translatorFor(language: Language): Translate {
  return catalogueTranslator(CATALOGUES[language])
}

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}
