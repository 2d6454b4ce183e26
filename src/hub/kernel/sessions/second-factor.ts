import { Type } from 'typebox'

/**
 * What a feature adds after the password (two-step sign-in provides one; without it, none): login
 * asks it before starting a session, and reauthentication before taking the password alone.
 */
export interface SecondFactorGate {
  /** A challenge for the account whose password was just matched, or null when the account asks no second factor. */
  challengeFor(userId: string, now: Date): Promise<string | null>
  /** Whether the account asks a second factor: then the password alone is no recent sign-in either. */
  isOn(userId: string): Promise<boolean>
  /** Reauthentication's 403 for the password while it is on, and the sentence its OpenAPI description says it in. */
  passwordRefused: { error: string; described: string }
  /**
   * Turns it off for a person who lost it (an administrator's reset, docs/administration.md): it
   * and whatever stands in for it (recovery codes) are removed, and the person is told by mail in
   * their language. Answers whether it was on; nothing happens, and no mail goes, when it was not.
   */
  removeFor(userId: string, now: Date): Promise<boolean>
}

/** The gate of a hub whose features add no second factor: the password is enough. */
export const NO_SECOND_FACTOR: SecondFactorGate = {
  challengeFor: async () => null,
  isOn: async () => false,
  passwordRefused: { error: '', described: '' },
  removeFor: async () => false
}

/** Login's answer when the account asks a second factor: no cookie yet. */
export const SecondFactorRequired = Type.Object({
  mfaRequired: Type.Literal(true),
  challenge: Type.String({ description: 'For POST /api/auth/login/second-factor, within 5 minutes' })
})
