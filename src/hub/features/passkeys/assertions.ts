import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { challengeOf, verifiedAssertion } from './ceremonies.js'
import { createPasskeyChallenges } from './challenges.js'
import { relyingPartyOf } from './relying-party.js'
import type { PasskeyRepository, StoredPasskey } from './repository.js'

export interface PasskeyAssertionsOptions {
  db: Kysely<Database>
  passkeys: PasskeyRepository
  /** HUB_PUBLIC_URL: the relying party's id and the only origin an assertion is accepted from. */
  publicUrl: string
  now: () => Date
}

export type PasskeyUse = 'accepted' | 'not-verified' | 'counter-went-back'

/**
 * Using a passkey, for the two places one proves who someone is: signing in, and reauthenticating
 * a session for a sensitive change. Both answer a challenge from `POST /api/auth/passkey/options`.
 */
export function createPasskeyAssertions({ db, passkeys, publicUrl, now }: PasskeyAssertionsOptions) {
  const challenges = createPasskeyChallenges(db)
  const relyingParty = relyingPartyOf(publicUrl)

  const takeChallenge = async (response: AuthenticationResponseJSON): Promise<string | null> => {
    const challenge = challengeOf(response)
    return challenge !== null && (await challenges.takeForAuthentication(challenge, now())) ? challenge : null
  }

  /**
   * Checks the assertion against the passkey it names and records the use. Recording is a
   * compare-and-set on the counter, so of two uses of one counter value (a copy of the key racing
   * the original) only one is accepted, whichever instance each reaches.
   */
  const use = async (passkey: StoredPasskey, response: AuthenticationResponseJSON, challenge: string): Promise<PasskeyUse> => {
    const assertion = await verifiedAssertion(relyingParty, response, challenge, passkey)
    if (assertion.outcome !== 'verified') return assertion.outcome
    return (await passkeys.recordUse(passkey, assertion.signCount, now())) ? 'accepted' : 'counter-went-back'
  }

  return {
    /** The sign-in challenge the assertion answers, used up; null when it is not the hub's, has expired or was used. */
    takeChallenge,
    /** The passkey the assertion names, whoever's it is. */
    passkeyOf: (response: AuthenticationResponseJSON) => passkeys.findByCredentialId(response.id),
    use,

    /** Whether the assertion is a fresh, accepted use of one of this account's passkeys. */
    async proves(userId: string, response: AuthenticationResponseJSON): Promise<boolean> {
      const challenge = await takeChallenge(response)
      if (challenge === null) return false
      const passkey = await passkeys.findByCredentialId(response.id)
      return passkey?.userId === userId && (await use(passkey, response, challenge)) === 'accepted'
    }
  }
}

export type PasskeyAssertions = ReturnType<typeof createPasskeyAssertions>
