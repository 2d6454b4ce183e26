import type { FastifyRequest } from 'fastify'
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, type Language, chooseLanguage, isLanguage } from '../pages/language.js'

/** The account's language as stored; English should the column ever hold anything else. */
export function languageOfAccount(locale: string): Language {
  return isLanguage(locale) ? locale : DEFAULT_LANGUAGE
}

/**
 * The language the person is reading the hub in, as its pages choose it: the switch's cookie, else
 * Accept-Language, else English. A new account starts with it, so its first mail is readable.
 */
export function browserLanguageOf(request: FastifyRequest): Language {
  return chooseLanguage(request.cookies[LANGUAGE_COOKIE], request.headers['accept-language'])
}
