import { type JsonWebKey, type KeyObject, createPrivateKey } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {
  type CryptoKey,
  type JWK,
  type JWTVerifyGetKey,
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK
} from 'jose'
import { readOrCreateSecretFile, writeSecretFile } from '../security/secret-files.js'

/** Only asymmetric algorithms: the private half never leaves the hub; applications verify with the public half. */
export const SIGNING_ALGORITHMS = ['EdDSA', 'ES256'] as const
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number]
const NEW_KEY_ALGORITHM: SigningAlgorithm = 'EdDSA'

/**
 * How long a retired key stays published: well past the longest lifetime of a token it signed (an
 * SSO token, five minutes; ID tokens live two) plus the clock tolerance verifiers allow.
 */
export const RETIRED_KEY_RETENTION_MS = 65 * 60 * 1000

export const SIGNING_KEYS_FILE = 'hub-signing-keys.json'

/** A key as kept in DATA_DIR: newest first; the first signs. */
export interface StoredKey {
  privateJwk: JWK
  createdAt: string
  retiredAt?: string
}

/** What /.well-known/jwks.json publishes of a key: never `d`. */
export interface PublicJwk {
  kty: string
  crv: string
  x: string
  y?: string
  kid: string
  use: string
  alg: SigningAlgorithm
}

export interface SigningKey {
  kid: string
  alg: SigningAlgorithm
  /** For jose. */
  key: CryptoKey | Uint8Array
  /** The same key for node:crypto's synchronous `sign`, which the hot paths use (see signing.ts). */
  privateKey: KeyObject
}

export interface Keyring {
  /** The key that signs now. */
  signingKey(): Promise<SigningKey>
  /** Public halves of every key whose tokens may still be live, for /.well-known/jwks.json. */
  publicJwks(now: Date): { keys: PublicJwk[] }
  /** A jose key resolver over the published keys. */
  verifier(now: Date): JWTVerifyGetKey
  /**
   * The published keys with their private halves, the signing key first: for the OpenID Connect
   * provider, which signs with the first key of its algorithm and publishes the rest.
   */
  privateJwks(now: Date): JWK[]
}

/** Keys from HUB_SIGNING_KEY when set, else from DATA_DIR (generated at first start). */
export async function openKeyring(options: { signingKey: string | undefined; dataDir: string; now: Date }): Promise<Keyring> {
  if (options.signingKey !== undefined) {
    const parsed = JSON.parse(options.signingKey) as JWK | JWK[]
    const stored = await Promise.all(
      (Array.isArray(parsed) ? parsed : [parsed]).map(async (jwk) => ({
        privateJwk: { ...jwk, kid: jwk.kid ?? (await calculateJwkThumbprint(jwk)) },
        createdAt: ''
      }))
    )
    return keyringOver(() => stored)
  }
  const file = path.join(options.dataDir, SIGNING_KEYS_FILE)
  readOrCreateSecretFile(file, JSON.stringify([await generateStoredKey(options.now)], null, 2))
  return keyringOver(watchedKeyFile(file))
}

function keyringOver(storedKeys: () => StoredKey[]): Keyring {
  const imported = new Map<string, Promise<SigningKey>>()
  const current = (): StoredKey => {
    const [first] = storedKeys()
    if (!first) throw new Error('The signing key set is empty')
    return first
  }
  const published = (now: Date) =>
    storedKeys()
      .filter((stored) => isPublished(stored, now))
      .map(({ privateJwk }) => publicHalf(privateJwk))
  // Importing keys is the costly part of verifying; the key set is rebuilt only when its keys change.
  let verifying: { kids: string; getKey: JWTVerifyGetKey } | undefined
  return {
    signingKey() {
      const { privateJwk } = current()
      const kid = requireKid(privateJwk)
      let key = imported.get(kid)
      if (!key) {
        const alg = algorithmOf(privateJwk)
        key = importJWK(privateJwk, alg).then((imported) => ({
          kid,
          alg,
          key: imported,
          privateKey: createPrivateKey({ key: privateJwk as JsonWebKey, format: 'jwk' })
        }))
        imported.set(kid, key)
      }
      return key
    },
    publicJwks: (now) => ({ keys: published(now) }),
    privateJwks: (now) =>
      storedKeys()
        .filter((stored) => isPublished(stored, now))
        .map(({ privateJwk }) => ({ ...privateJwk, kid: requireKid(privateJwk), alg: algorithmOf(privateJwk), use: 'sig' })),
    verifier(now) {
      const keys = published(now)
      const kids = keys.map((key) => key.kid).join(' ')
      if (verifying?.kids !== kids) verifying = { kids, getKey: createLocalJWKSet({ keys: keys as JWK[] }) }
      return verifying.getKey
    }
  }
}

function isPublished(stored: StoredKey, now: Date): boolean {
  return stored.retiredAt === undefined || Date.parse(stored.retiredAt) + RETIRED_KEY_RETENTION_MS > now.getTime()
}

/** Re-reads the key file when `keys:rotate` has rewritten it, so a running hub picks up a rotation without a restart. */
function watchedKeyFile(file: string): () => StoredKey[] {
  let cached: { version: string; keys: StoredKey[] } | undefined
  return () => {
    // The rewrite renames a new file over the old one, so the inode changes even within one clock tick.
    const { ino, mtimeMs } = fs.statSync(file)
    const version = `${ino}:${mtimeMs}`
    if (cached?.version !== version) cached = { version, keys: readKeyFile(file) }
    return cached.keys
  }
}

function readKeyFile(file: string): StoredKey[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as StoredKey[]
}

/**
 * Adds a new signing key in front, marks the previous one retired (still published until its
 * tokens have expired) and drops keys retired longer ago than that. Returns the new key id.
 */
export async function rotateSigningKeys(dataDir: string, now: Date): Promise<string> {
  const file = path.join(dataDir, SIGNING_KEYS_FILE)
  const existing = fs.existsSync(file) ? readKeyFile(file) : []
  const fresh = await generateStoredKey(now)
  const kept = existing
    .map((stored) => (stored.retiredAt ? stored : { ...stored, retiredAt: now.toISOString() }))
    .filter((stored) => isPublished(stored, now))
  writeSecretFile(file, JSON.stringify([fresh, ...kept], null, 2), { exclusive: false })
  return requireKid(fresh.privateJwk)
}

export async function generateStoredKey(now: Date): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(NEW_KEY_ALGORITHM, { extractable: true })
  const jwk = await exportJWK(privateKey)
  const kid = await calculateJwkThumbprint(jwk)
  return { privateJwk: { ...jwk, kid, alg: NEW_KEY_ALGORITHM, use: 'sig' }, createdAt: now.toISOString() }
}

function publicHalf(jwk: JWK): PublicJwk {
  const { kty, crv, x, y, use } = jwk
  if (!kty || !crv || !x) throw new Error('A signing key is incomplete')
  return { kty, crv, x, ...(y ? { y } : {}), kid: requireKid(jwk), use: use ?? 'sig', alg: algorithmOf(jwk) }
}

function algorithmOf(jwk: JWK): SigningAlgorithm {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA'
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256'
  throw new Error(`Unsupported signing key: ${jwk.kty ?? '?'} ${jwk.crv ?? ''} (use Ed25519 or P-256)`)
}

function requireKid(jwk: JWK): string {
  if (!jwk.kid) throw new Error('A signing key has no kid')
  return jwk.kid
}
