import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import path from 'node:path'
import { DATA_DIR_SECRETS, readOrCreateSecretFile } from './secret-files.js'

export const ENCRYPTION_KEY_FILE = DATA_DIR_SECRETS.encryptionKey
/** AES-256: a key of 32 bytes. */
export const ENCRYPTION_KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
/** Names the scheme, so a stored value says how it was sealed should another ever be added. */
const VERSION = 'v1'

/** The key secrets are encrypted at rest with: HUB_ENCRYPTION_KEY when set, else one generated into DATA_DIR at first start. */
export function loadEncryptionKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured
  const stored = readOrCreateSecretFile(path.join(dataDir, ENCRYPTION_KEY_FILE), randomBytes(ENCRYPTION_KEY_BYTES).toString('base64url'))
  const key = Buffer.from(stored.trim(), 'base64url')
  if (key.length !== ENCRYPTION_KEY_BYTES) throw new Error(`${ENCRYPTION_KEY_FILE} in DATA_DIR must hold ${ENCRYPTION_KEY_BYTES} bytes, base64url-encoded`)
  return key
}

/**
 * AES-256-GCM with a random 96-bit nonce per value. `context` (the owner's id, say) is
 * authenticated with it, so a value copied onto another row does not open there.
 */
export function createSecretBox(key: Buffer) {
  return {
    seal(plaintext: string, context: string): string {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(context))
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`
    },

    /** Throws when the value was not sealed with this key and context, or was altered. */
    open(sealed: string, context: string): string {
      const [version, encoded] = sealed.split('.')
      if (version !== VERSION || encoded === undefined) throw new Error('Not a value sealed by this hub')
      const bytes = Buffer.from(encoded, 'base64url')
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
        .setAAD(Buffer.from(context))
        .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
    }
  }
}

export type SecretBox = ReturnType<typeof createSecretBox>
