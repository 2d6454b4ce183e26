import type { CookieSerializeOptions } from '@fastify/cookie'
import Negotiator from 'negotiator'

export const LANGUAGES = ['en', 'es'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'en'

/** The cookie the language switcher sets; it outranks the browser's Accept-Language. */
export const LANGUAGE_COOKIE = 'lang'

/**
 * A preference, not a credential: a year, and no script needs to read it; Secure like the
 * service's own cookies. The task manager sets the same cookie, so on one host a switch serves both.
 */
export const languageCookieOptions = (secure: boolean): CookieSerializeOptions => ({ path: '/', sameSite: 'lax', maxAge: 365 * 24 * 60 * 60, httpOnly: true, secure })

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/** Looks messages up in one language's catalogue and fills in their `{name}` placeholders. */
export function catalogueTranslator<Key extends string>(catalogue: Record<Key, string>) {
  return (key: Key, values: Record<string, string | number> = {}): string => fillPlaceholders(catalogue[key], values)
}

/** Fills a message's `{name}` placeholders; one without a value stays visible. */
export function fillPlaceholders(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (placeholder, name: string) => String(values[name] ?? placeholder))
}

/**
 * The page language: a valid `lang` cookie, else the best of Accept-Language by q-value
 * (`es-MX` counts as `es`), else English.
 */
export function chooseLanguage(cookie: string | undefined, acceptLanguage: string | undefined): Language {
  if (isLanguage(cookie)) return cookie
  const [preferred] = new Negotiator({ headers: { 'accept-language': acceptLanguage ?? '' } }).languages([...LANGUAGES])
  return isLanguage(preferred) ? preferred : DEFAULT_LANGUAGE
}
