import { randomUUID } from 'node:crypto'
import { badRequest } from '../../../shared/errors.js'
import type { FirstPasskey } from '../../kernel/accounts/first-passkey.js'
import { conflict } from '../../kernel/http/http-errors.js'
import { ALREADY_REGISTERED, REGISTRATION_CHALLENGE_GONE, REGISTRATION_NOT_VERIFIED, passkeyName } from './account-routes.js'
import { defaultPasskeyName } from './authenticator-names.js'
import { challengeOf, registrationOptions, verifiedRegistration } from './ceremonies.js'
import type { PasskeyChallenges } from './challenges.js'
import type { RelyingParty } from './relying-party.js'
import type { PasskeyRepository } from './repository.js'
import { CeremonyOptions, PasskeyName, RegistrationResponse } from './schemas.js'

export interface FirstPasskeyOptions {
  passkeys: PasskeyRepository
  challenges: PasskeyChallenges
  relyingParty: RelyingParty
}

/**
 * The ceremony of adding a passkey (the same options, checks and storage), for an account not made
 * yet: its challenge is bound to the id the account will have and to what its maker holds, not to
 * a session; it has no passkey to exclude, no name to show but its address, and no mail of its own
 * (the account is being made, by its holder, this minute).
 */
export function firstPasskey({ passkeys, challenges, relyingParty }: FirstPasskeyOptions): FirstPasskey<typeof RegistrationResponse> {
  return {
    schemas: { response: RegistrationResponse, name: PasskeyName, options: CeremonyOptions },

    async begin(email, binding, now) {
      const userId = randomUUID()
      const challenge = await challenges.issueForNewAccount(userId, binding, now)
      return registrationOptions(relyingParty, { userId, email, displayName: null }, [], challenge)
    },

    async finish(response, typedName, binding, now) {
      // Before the challenge is used up: a refused name costs the person no ceremony.
      const chosenName = typedName === undefined ? undefined : passkeyName(typedName)
      const challenge = challengeOf(response)
      const userId = challenge === null ? null : await challenges.takeForNewAccount(challenge, binding, now)
      if (challenge === null || userId === null) throw badRequest(REGISTRATION_CHALLENGE_GONE)
      const credential = await verifiedRegistration(relyingParty, response, challenge)
      if (!credential) throw badRequest(REGISTRATION_NOT_VERIFIED)
      const name = chosenName ?? defaultPasskeyName(credential.aaguid)
      return {
        userId,
        async store(trx, at) {
          const added = await passkeys.insert({ ...credential, userId, name }, at, trx)
          if (!added) throw conflict(ALREADY_REGISTERED)
          return { userId, type: 'passkey.added', detail: { passkey: added.id, name } }
        }
      }
    }
  }
}
