import { domainToASCII } from 'node:url'
import commonPasswords from './common-passwords.json' with { type: 'json' }

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const EMAIL_MAX_LENGTH = 254

/** Lower case, so a list entry matches "Password1" as well as "password1". */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(commonPasswords)

/** One visible local part, one @, a dotted domain; no spaces. Deliverability is not ours to prove. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

/**
 * Characters a reader cannot see or that change how the text around them is shown: controls,
 * format characters (zero-width spaces and joiners, bidi controls, U+FEFF) and Unicode's other
 * default-ignorable code points (soft hyphen, variation selectors, fillers). An address holding
 * one looks exactly like the address without it, which is all an impersonator needs.
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u

/**
 * The email as stored and compared. NFC, so an "é" typed as one code point or as "e" and an accent
 * is one address; trimmed; lower case, so uniqueness is case-insensitive (the local part too:
 * RFC 5321 would let a mail server tell "Ada" from "ada", but two accounts for one inbox are the
 * greater harm, and every stored address was already lower-cased); and the domain in its IDNA
 * ASCII form, so "bücher.de" and "xn--bcher-kva.de" are one domain.
 */
export function normaliseEmail(email: string): string {
  const trimmed = email.normalize('NFC').trim()
  const at = trimmed.lastIndexOf('@')
  if (at === -1) return trimmed.toLowerCase()
  const domain = trimmed.slice(at + 1)
  // Unicode does not promise that lower-casing keeps a string in NFC, hence NFC again.
  const local = trimmed.slice(0, at).toLowerCase().normalize('NFC')
  // domainToASCII answers '' for a name IDNA refuses; kept as typed, it then fails emailProblem.
  return `${local}@${domainToASCII(domain) || domain.toLowerCase()}`
}

/** Why the email cannot be used for a new account, or null. Takes the email as typed. */
export function emailProblem(typed: string): string | null {
  if (INVISIBLE.test(typed.normalize('NFC').trim())) return 'Email must not contain control or invisible characters'
  const email = normaliseEmail(typed)
  if (email.length > EMAIL_MAX_LENGTH) return `Email must be at most ${EMAIL_MAX_LENGTH} characters`
  const domain = email.slice(email.lastIndexOf('@') + 1)
  return EMAIL.test(email) && domainToASCII(domain) === domain ? null : 'Email must be a valid email address'
}

/** Why the password cannot be used, or null. Lengths count characters, not bytes. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return 'Password is too common; choose one that is harder to guess'
  return null
}
