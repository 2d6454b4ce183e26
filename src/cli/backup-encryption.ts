import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

/**
 * A backup sealed with a passphrase: a header, then the archive encrypted with AES-256-GCM under
 * a key scrypt derives from the passphrase, then GCM's tag. The header is authenticated too
 * (additional data), so its parameters cannot be changed unnoticed. Layout:
 *
 *   MAGIC | log2(N) r p (1 byte each) | salt (16) | nonce (12) | passphrase check (16) | ciphertext | tag (16)
 *
 * The passphrase check (an HMAC of the derived key) tells a wrong passphrase from a damaged file;
 * it reveals nothing a trial decryption would not.
 */
export const ENCRYPTED_MAGIC = Buffer.from('Hearth backup, encrypted: scrypt + AES-256-GCM, v1\n', 'ascii')

/** N = 2^17, r = 8, p = 1: 128 MiB and about half a second per try, OWASP's recommendation for scrypt. */
const SCRYPT = { log2N: 17, r: 8, p: 1 }
/** Bounds on what a header may ask for, so a crafted file cannot make restore use gigabytes. */
const MAX_SCRYPT = { log2N: 20, r: 16, p: 4 }
const SALT_BYTES = 16
const NONCE_BYTES = 12
const CHECK_BYTES = 16
const TAG_BYTES = 16
const KEY_BYTES = 32
const HEADER_BYTES = ENCRYPTED_MAGIC.length + 3 + SALT_BYTES + NONCE_BYTES + CHECK_BYTES

export class WrongPassphraseError extends Error {}
export class DamagedEncryptionError extends Error {}

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>

export function isEncrypted(file: Buffer): boolean {
  return file.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC)
}

export async function encrypt(archive: Buffer, passphrase: string): Promise<Buffer> {
  const salt = randomBytes(SALT_BYTES)
  const nonce = randomBytes(NONCE_BYTES)
  const { key, checkKey } = await deriveKeys(passphrase, salt, SCRYPT)
  const header = Buffer.concat([ENCRYPTED_MAGIC, Buffer.from([SCRYPT.log2N, SCRYPT.r, SCRYPT.p]), salt, nonce, passphraseCheck(checkKey)])
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES })
  cipher.setAAD(header)
  return Buffer.concat([header, cipher.update(archive), cipher.final(), cipher.getAuthTag()])
}

/** The archive, once its tag has verified: nothing of a file changed or cut short comes out. */
export async function decrypt(file: Buffer, passphrase: string): Promise<Buffer> {
  if (file.length < HEADER_BYTES + TAG_BYTES) throw new DamagedEncryptionError('the encrypted backup is cut short')
  const header = file.subarray(0, HEADER_BYTES)
  let offset = ENCRYPTED_MAGIC.length
  const [log2N = 0, r = 0, p = 0] = header.subarray(offset, (offset += 3))
  if (log2N < 1 || log2N > MAX_SCRYPT.log2N || r < 1 || r > MAX_SCRYPT.r || p < 1 || p > MAX_SCRYPT.p) {
    throw new DamagedEncryptionError('the encrypted backup names scrypt parameters out of bounds')
  }
  const salt = header.subarray(offset, (offset += SALT_BYTES))
  const nonce = header.subarray(offset, (offset += NONCE_BYTES))
  const check = header.subarray(offset, (offset += CHECK_BYTES))
  const { key, checkKey } = await deriveKeys(passphrase, salt, { log2N, r, p })
  if (!timingSafeEqual(passphraseCheck(checkKey), check)) throw new WrongPassphraseError('the passphrase is wrong')
  const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES })
  decipher.setAAD(header)
  decipher.setAuthTag(file.subarray(file.length - TAG_BYTES))
  const plain = decipher.update(file.subarray(HEADER_BYTES, file.length - TAG_BYTES))
  try {
    return Buffer.concat([plain, decipher.final()])
  } catch {
    throw new DamagedEncryptionError('the encrypted backup was changed or cut short: its authentication tag does not verify')
  }
}

/** The encryption key and, apart from it, the key of the passphrase check. */
async function deriveKeys(passphrase: string, salt: Buffer, { log2N, r, p }: typeof SCRYPT): Promise<{ key: Buffer; checkKey: Buffer }> {
  const N = 2 ** log2N
  // scrypt needs 128 * N * r bytes; Node's default limit (32 MiB) is below what SCRYPT asks.
  const derived = await scryptAsync(passphrase, salt, 2 * KEY_BYTES, { N, r, p, maxmem: 256 * N * r })
  return { key: derived.subarray(0, KEY_BYTES), checkKey: derived.subarray(KEY_BYTES) }
}

function passphraseCheck(checkKey: Buffer): Buffer {
  return createHmac('sha256', checkKey).update('hearth backup passphrase check').digest().subarray(0, CHECK_BYTES)
}
