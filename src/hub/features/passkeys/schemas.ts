import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { Type } from 'typebox'
import { DISPLAY_NAME_MAX_LENGTH } from '../../kernel/accounts/display-name.js'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'

/** The 401 of an assertion that signs in no one, or proves nothing for this session. */
export const PASSKEY_NOT_ACCEPTED = 'The passkey was not accepted'

// Bounds on what a browser sends, generous for any authenticator: attestation is "none", so no
// certificate chain rides along; a credential id is at most 1023 bytes.
const Base64Url = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+$' })
const CREDENTIAL_ID_MAX_LENGTH = 1400
const DATA_MAX_LENGTH = 16_384

const credentialFields = {
  id: Base64Url(CREDENTIAL_ID_MAX_LENGTH),
  rawId: Base64Url(CREDENTIAL_ID_MAX_LENGTH),
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Object({})
}

/** `navigator.credentials.create()`'s result as JSON (`PublicKeyCredential.toJSON()`, or @simplewebauthn/browser's `startRegistration`). */
export const RegistrationResponse = Type.Unsafe<RegistrationResponseJSON>(
  Type.Object({
    ...credentialFields,
    response: Type.Object({
      clientDataJSON: Base64Url(DATA_MAX_LENGTH),
      attestationObject: Base64Url(DATA_MAX_LENGTH),
      transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 }))
    })
  })
)

/** `navigator.credentials.get()`'s result as JSON (or @simplewebauthn/browser's `startAuthentication`). */
export const AuthenticationResponse = Type.Unsafe<AuthenticationResponseJSON>(
  Type.Object({
    ...credentialFields,
    response: Type.Object({
      clientDataJSON: Base64Url(DATA_MAX_LENGTH),
      authenticatorData: Base64Url(DATA_MAX_LENGTH),
      signature: Base64Url(DATA_MAX_LENGTH),
      userHandle: Type.Optional(Type.String({ maxLength: 128 }))
    })
  })
)

// Room for surrounding spaces, which are trimmed; the limit is checked after.
export const PasskeyName = Type.String({ maxLength: DISPLAY_NAME_MAX_LENGTH * 4, description: '1–64 visible characters', [PLAIN_TEXT]: true })

export const ListedPasskey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Null until it signs in' })
})

export const AddedPasskey = Type.Object({ id: Type.String(), name: Type.String(), createdAt: Type.String({ format: 'date-time' }) })

/**
 * The options for `navigator.credentials.create/get` in their JSON form (binary fields base64url),
 * as `PublicKeyCredential.parseCreationOptionsFromJSON` and @simplewebauthn/browser take them.
 */
export const CeremonyOptions = Type.Object({}, { additionalProperties: true, description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON' })
