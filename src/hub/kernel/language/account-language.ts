import type { FastifyRequest } from 'fastify'
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, type Language, chooseLanguage, isLanguage } from './language.js'

/**
 * The language to write to an account in: the one its person chose (`users.locale`), else
 * `fallback`, the language of the request that caused the mail where there is one (see
 * `browserLanguageOf`), else English. An account made without a choice (`users:create`, the API's
 * sign-up) stores none, so it follows the browser instead of an English nobody picked.
 */
export function languageOfAccount(locale: string | null, fallback: Language = DEFAULT_LANGUAGE): Language {
  return isLanguage(locale) ? locale : fallback
}

/**
 * The language a person chose at sign-up: the sign-up page's own (it sends its language as
 * `locale`), else the language switch's cookie; null when neither says, as a bare API call with at
 * most an Accept-Language, which is the browser's default rather than a choice.
 */
export function chosenLanguageOf(request: FastifyRequest, locale: Language | undefined): Language | null {
  if (locale !== undefined) return locale
  const cookie = request.cookies[LANGUAGE_COOKIE]
  return isLanguage(cookie) ? cookie : null
}

/**
 * The language the person is reading the hub in, as its pages choose it: the switch's cookie, else
 * Accept-Language, else English. Mail a request causes is in it when the account chose none.
 */
export function browserLanguageOf(request: FastifyRequest): Language {
  return chooseLanguage(request.cookies[LANGUAGE_COOKIE], request.headers['accept-language'])
}
