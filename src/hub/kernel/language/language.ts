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

/** One catalogue a language, each with every key (`Record<Key, string>`, so a missing translation fails typecheck). */
export type Catalogues<Key extends string> = Record<Language, Record<Key, string>>

/**
 * A feature's words joined with the kernel's, once per language when the feature's module loads,
 * never per use. A feature key the kernel has already is refused then (naming `what`), so neither
 * can hide the other's sentence.
 */
export function joinedTranslators<KernelKey extends string, Key extends string>(kernel: Catalogues<KernelKey>, feature: Catalogues<Key>, what: string) {
  const taken = LANGUAGES.flatMap((language) => Object.keys(feature[language])).filter((key) => Object.hasOwn(kernel.en, key))
  if (taken.length > 0) throw new Error(`A feature's ${what} reuse keys of the kernel's: ${[...new Set(taken)].join(', ')}`)
  const joined = Object.fromEntries(LANGUAGES.map((language) => [language, catalogueTranslator<KernelKey | Key>({ ...kernel[language], ...feature[language] })]))
  return (language: Language) => joined[language] as ReturnType<typeof catalogueTranslator<KernelKey | Key>>
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
