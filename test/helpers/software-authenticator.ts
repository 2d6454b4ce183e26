import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const FLAG_USER_PRESENT = 0x01
const FLAG_USER_VERIFIED = 0x04
const FLAG_ATTESTED_CREDENTIAL = 0x40

export interface CreationOptionsJson {
  challenge: string
  rp: { id?: string }
  user: { id: string }
}

export interface RequestOptionsJson {
  challenge: string
  rpId?: string
}

export interface CeremonyOverrides {
  /** The page the browser says the ceremony ran on; the hub's origin unless set. */
  origin?: string
  /** The RP id the authenticator scopes the credential to; the options' unless set. */
  rpId?: string
  userVerified?: boolean
  /** The counter to sign; by default one more than the last. */
  signCount?: number
  challenge?: string
}

/**
 * A passkey authenticator in the test process: an ES256 key, "none" attestation, a signature
 * counter, and the JSON a browser would send (`PublicKeyCredential.toJSON()`). The hub verifies
 * what it makes with the WebAuthn library, for real; the browser tests use Chromium's own.
 */
export function softwareAuthenticator(origin: string, aaguid = '00000000-0000-0000-0000-000000000000') {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const credentialId = randomBytes(32)
  let signCount = 0
  let userHandle = ''

  const jwk = publicKey.export({ format: 'jwk' })
  const coseKey = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x ?? '', 'base64url')],
    [-3, Buffer.from(jwk.y ?? '', 'base64url')]
  ])
  const clientData = (type: string, challenge: string, overrides: CeremonyOverrides) =>
    Buffer.from(JSON.stringify({ type, challenge: overrides.challenge ?? challenge, origin: overrides.origin ?? origin, crossOrigin: false }))
  const authenticatorData = (rpId: string, overrides: CeremonyOverrides, attested?: Buffer) => {
    const flags = FLAG_USER_PRESENT | (overrides.userVerified === false ? 0 : FLAG_USER_VERIFIED) | (attested ? FLAG_ATTESTED_CREDENTIAL : 0)
    signCount = overrides.signCount ?? signCount + 1
    const counter = Buffer.alloc(4)
    counter.writeUInt32BE(signCount)
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), counter, attested ?? Buffer.alloc(0)])
  }
  const credential = (response: Record<string, unknown>) => ({
    id: credentialId.toString('base64url'),
    rawId: credentialId.toString('base64url'),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
    response
  })

  return {
    credentialId: credentialId.toString('base64url'),
    get signCount() {
      return signCount
    },

    /** `navigator.credentials.create()` answering these options. */
    create(options: CreationOptionsJson, overrides: CeremonyOverrides = {}) {
      userHandle = options.user.id
      const idLength = Buffer.alloc(2)
      idLength.writeUInt16BE(credentialId.length)
      const attested = Buffer.concat([Buffer.from(aaguid.replaceAll('-', ''), 'hex'), idLength, credentialId, Buffer.from(isoCBOR.encode(coseKey))])
      // A new credential starts its counter at 0 unless told otherwise.
      const authData = authenticatorData(overrides.rpId ?? options.rp.id ?? '', { signCount: 0, ...overrides }, attested)
      const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never)
      return credential({
        clientDataJSON: clientData('webauthn.create', options.challenge, overrides).toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal']
      })
    },

    /** `navigator.credentials.get()` answering these options with this passkey. */
    get(options: RequestOptionsJson, overrides: CeremonyOverrides = {}) {
      const authData = authenticatorData(overrides.rpId ?? options.rpId ?? '', overrides)
      const clientDataJSON = clientData('webauthn.get', options.challenge, overrides)
      const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), privateKey)
      return credential({
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle
      })
    }
  }
}
