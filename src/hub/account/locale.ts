import { DEFAULT_LANGUAGE, type Language, isLanguage } from '../pages/language.js'

/** The account's language as stored; English should the column ever hold anything else. */
export function languageOfAccount(locale: string): Language {
  return isLanguage(locale) ? locale : DEFAULT_LANGUAGE
}
