import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON
} from '@simplewebauthn/server'
import { loadOnce } from '../../../shared/load-once.js'
import { PASSKEY_CEREMONY_MS } from './challenges.js'
import type { NewPasskey, StoredPasskey } from './repository.js'
import type { RelyingParty } from './relying-party.js'

/**
 * The WebAuthn user handle: the account's id, which names no one. A passkey stored on an
 * authenticator carries it, and hands it back at sign-in.
 */
const userHandleOf = (userId: string) => new TextEncoder().encode(userId)

/** The WebAuthn library, imported with the first ceremony: a hub whose people use no passkey never loads it. */
const webauthn = loadOnce(() => import('@simplewebauthn/server'))

/**
 * The challenge a response signed, as the options carried it; null when the response is not
 * readable. Read here rather than by the library's helper, which would load the whole library
 * for a base64url decode: this only finds the stored challenge, and the verification that follows
 * decodes clientDataJSON again, its own way, and checks the challenge against that one.
 */
export function challengeOf(response: { response: { clientDataJSON: string } }): string | null {
  try {
    const clientData: unknown = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'))
    const challenge = (clientData as { challenge?: unknown } | null)?.challenge
    return typeof challenge === 'string' ? challenge : null
  } catch {
    return null
  }
}

/**
 * Creation options: a discoverable credential if the authenticator can make one (so it signs in
 * without an address), user verification required (the passkey alone is two factors), none of
 * the account's passkeys again, and no attestation (the hub trusts no vendor list, and asking would
 * only cost the person a consent prompt).
 */
export async function registrationOptions(
  relyingParty: RelyingParty,
  account: { userId: string; email: string; displayName: string | null },
  existing: { id: string; transports: string[] }[],
  challenge: string
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn()
  return generateRegistrationOptions({
    rpName: relyingParty.name,
    rpID: relyingParty.id,
    userID: userHandleOf(account.userId),
    userName: account.email,
    userDisplayName: account.displayName ?? account.email,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: PASSKEY_CEREMONY_MS,
    attestationType: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' }
  })
}

/** Request options for a sign-in by a discoverable credential: no allow list, so no address is asked for. */
export async function authenticationOptions(relyingParty: RelyingParty, challenge: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn()
  return generateAuthenticationOptions({
    rpID: relyingParty.id,
    allowCredentials: [],
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: PASSKEY_CEREMONY_MS,
    userVerification: 'required'
  })
}

/** The credential a registration response proves, made on the hub's page for its RP id with user verification; null otherwise. */
export async function verifiedRegistration(
  relyingParty: RelyingParty,
  response: RegistrationResponseJSON,
  challenge: string
): Promise<Omit<NewPasskey, 'userId' | 'name'> | null> {
  const { verifyRegistrationResponse } = await webauthn()
  try {
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: true
    })
    if (!verified) return null
    const { credential, aaguid } = registrationInfo
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports: response.response.transports ?? [],
      aaguid
    }
  } catch {
    return null
  }
}

export type AssertionOutcome = { outcome: 'verified'; signCount: number } | { outcome: 'not-verified' } | { outcome: 'counter-went-back' }

/**
 * Checks an assertion against the stored passkey: signature, challenge, origin, RP id, user
 * verification, and the user handle when the authenticator returns one. The signature counter is
 * checked here, after the signature, rather than by the library, so that a counter that did not
 * move forward is told apart: a signed counter behind the stored one means a copy of the key.
 */
export async function verifiedAssertion(
  relyingParty: RelyingParty,
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: StoredPasskey
): Promise<AssertionOutcome> {
  const { userHandle } = response.response
  if (userHandle !== undefined && userHandle !== Buffer.from(userHandleOf(passkey.userId)).toString('base64url')) return { outcome: 'not-verified' }
  const { verifyAuthenticationResponse } = await webauthn()
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      // The library's own counter check is off (counter 0); ours follows.
      credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: 0, transports: passkey.transports },
      requireUserVerification: true
    })
    if (!verified) return { outcome: 'not-verified' }
    const signCount = authenticationInfo.newCounter
    // Authenticators that keep no counter send 0 every time, which is fine; any other must grow.
    if ((signCount > 0 || passkey.signCount > 0) && signCount <= passkey.signCount) return { outcome: 'counter-went-back' }
    return { outcome: 'verified', signCount }
  } catch {
    return { outcome: 'not-verified' }
  }
}
