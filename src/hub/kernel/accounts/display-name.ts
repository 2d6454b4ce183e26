import { INVISIBLE } from './credentials.js'

export const DISPLAY_NAME_MAX_LENGTH = 64

/** The display name as stored: NFC, so one name typed two ways is one name, and trimmed. */
export function normaliseDisplayName(typed: string): string {
  return typed.normalize('NFC').trim()
}

/**
 * Why the display name cannot be used, or null. Invisible and control characters are refused for
 * the reason they are in an email: a name holding one looks like another person's name without it.
 * Lengths count characters (code points), after trimming, as password lengths do.
 */
export function displayNameProblem(typed: string): string | null {
  return visibleNameProblem('Display name', typed)
}

/** The same rules for any name a person gives to something of theirs (a passkey's, say); `label` starts the message. */
export function visibleNameProblem(label: string, typed: string): string | null {
  const name = normaliseDisplayName(typed)
  if (INVISIBLE.test(name)) return `${label} must not contain control or invisible characters`
  const length = [...name].length
  if (length === 0) return `${label} must not be empty`
  if (length > DISPLAY_NAME_MAX_LENGTH) return `${label} must be at most ${DISPLAY_NAME_MAX_LENGTH} characters`
  return null
}
