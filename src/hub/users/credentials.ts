import commonPasswords from './common-passwords.json' with { type: 'json' }

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const EMAIL_MAX_LENGTH = 254

/** Lower case, so a list entry matches "Password1" as well as "password1". */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(commonPasswords)

/** One visible local part, one @, a dotted domain; no spaces. Deliverability is not ours to prove. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

/** The email as stored and compared: trimmed and lower case, so uniqueness is case-insensitive. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** Why the email cannot be used, or null. Expects a normalised email. */
export function emailProblem(email: string): string | null {
  if (email.length > EMAIL_MAX_LENGTH) return `Email must be at most ${EMAIL_MAX_LENGTH} characters`
  return EMAIL.test(email) ? null : 'Email must be a valid email address'
}

/** Why the password cannot be used, or null. Lengths count characters, not bytes. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return 'Password is too common; choose one that is harder to guess'
  return null
}
