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
import { DATA_DIR_SECRETS, readOrCreateSecretFile, writeSecretFile } from '../security/secret-files.js'

/** Only asymmetric algorithms: the private half never leaves the hub; applications verify with the public half. */
export const SIGNING_ALGORITHMS = ['EdDSA', 'RS256', 'ES256'] as const
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number]
/**
 * The algorithms a key set in DATA_DIR always has a live key of, the first being the one the hub
 * signs its own tokens with (SSO tokens, security events, exports). The others sign the ID tokens
 * of applications that ask for them (docs/oidc.md): RS256 is the one every OpenID Connect client
 * supports, ES256 the compact alternative.
 */
export const GENERATED_ALGORITHMS: readonly SigningAlgorithm[] = ['EdDSA', 'RS256', 'ES256']
/**
 * 2048 bits: what RS256 verifiers everywhere accept and what NIST allows through 2030. A 3072-bit
 * key took 0.4 to 1 s to make on the two-core reference machine (2048: 0.1 to 0.5 s), paid at the
 * first start and at every `keys:rotate`, and makes every signature about three times slower.
 */
export const RSA_MODULUS_LENGTH = 2048

/**
 * How long a retired key stays published: well past the longest lifetime of a token it signed (an
 * SSO token, five minutes; ID tokens live two) plus the clock tolerance verifiers allow.
 */
export const RETIRED_KEY_RETENTION_MS = 65 * 60 * 1000

export const SIGNING_KEYS_FILE = DATA_DIR_SECRETS.signingKeys

/** A key as kept in DATA_DIR: newest first; the first signs. */
export interface StoredKey {
  privateJwk: JWK
  createdAt: string
  retiredAt?: string
}

/** What /.well-known/jwks.json publishes of a key: never `d`. */
export interface PublicJwk {
  kty: string
  crv?: string
  x?: string
  y?: string
  n?: string
  e?: string
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
  /** The key that signs the hub's own tokens now: the first key of the set (Ed25519 in a set the hub made). */
  signingKey(): Promise<SigningKey>
  /** The algorithms with a live (not retired) key: those an application's ID tokens may be signed with. */
  algorithms(now: Date): SigningAlgorithm[]
  /**
   * Public halves of every key whose tokens may still be live, for /.well-known/jwks.json: the same
   * (frozen) object until the key set changes, so a caller may keep what it makes of it by identity.
   */
  publicJwks(now: Date): { readonly keys: readonly PublicJwk[] }
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
  if (!fs.existsSync(file)) {
    // Another instance starting at the same moment may create it first: then its keys are the ones.
    readOrCreateSecretFile(file, JSON.stringify(await generateKeySet(options.now), null, 2))
  }
  await addMissingAlgorithms(file, options.now)
  return keyringOver(watchedKeyFile(file))
}

/**
 * A key set made before the hub signed with several algorithms (an Ed25519 key alone) gains a key
 * of each algorithm it lacks, after its own keys: the key that signs the hub's tokens stays first
 * and every key stays published, so no token already issued stops verifying.
 */
async function addMissingAlgorithms(file: string, now: Date): Promise<void> {
  const existing = readKeyFile(file)
  const live = new Set(existing.filter((stored) => stored.retiredAt === undefined).map((stored) => algorithmOf(stored.privateJwk)))
  const missing = GENERATED_ALGORITHMS.filter((alg) => !live.has(alg))
  if (missing.length === 0) return
  const added = await Promise.all(missing.map((alg) => generateStoredKey(now, alg)))
  // Retired keys stay last, so each algorithm's first key in the file is its live one.
  const current = existing.filter((stored) => stored.retiredAt === undefined)
  const retired = existing.filter((stored) => stored.retiredAt !== undefined)
  writeSecretFile(file, JSON.stringify([...current, ...added, ...retired], null, 2), { exclusive: false })
}

function keyringOver(storedKeys: () => StoredKey[]): Keyring {
  const imported = new Map<string, Promise<SigningKey>>()
  const current = (): StoredKey => {
    const [first] = storedKeys()
    if (!first) throw new Error('The signing key set is empty')
    return first
  }
  // The published key set, made again only when the key file changed (a rotation) or a retired
  // key's retention ran out: JWKS and discovery read it at every request (issue 32).
  let publication: { stored: StoredKey[]; from: number; until: number; jwks: { keys: PublicJwk[] } } | undefined
  const publishedJwks = (now: Date): { keys: PublicJwk[] } => {
    const stored = storedKeys()
    const at = now.getTime()
    if (publication?.stored !== stored || at < publication.from || at >= publication.until) {
      const kept = stored.filter((key) => isPublished(key, now))
      const retentionEnds = kept.flatMap(({ retiredAt }) => (retiredAt === undefined ? [] : [Date.parse(retiredAt) + RETIRED_KEY_RETENTION_MS]))
      const keys = Object.freeze(kept.map(({ privateJwk }) => Object.freeze(publicHalf(privateJwk))))
      publication = { stored, from: at, until: Math.min(Infinity, ...retentionEnds), jwks: Object.freeze({ keys: keys as PublicJwk[] }) }
    }
    return publication.jwks
  }
  const published = (now: Date) => publishedJwks(now).keys
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
    publicJwks: publishedJwks,
    algorithms: (now) => [
      ...new Set(
        storedKeys()
          .filter((stored) => stored.retiredAt === undefined && isPublished(stored, now))
          .map(({ privateJwk }) => algorithmOf(privateJwk))
      )
    ],
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

/** A look at the key file at least this often, for a file system that sends no change notices. */
const KEY_FILE_RECHECK_MS = 1000
/** Counts this process's own rotations, which its keyrings see at once, before any notice arrives. */
let rotationsInThisProcess = 0

/**
 * Re-reads the key file when `keys:rotate` has rewritten it, so a running hub picks up a rotation
 * without a restart. Every signature, verification, JWKS and discovery answer asks for the keys, so
 * the file is not looked at each time (a stat was a tenth of a JWKS answer, issue 32): only after the
 * kernel's change notice for it, this process's own rotation, or a second since the last look.
 */
function watchedKeyFile(file: string): () => StoredKey[] {
  let cached: { version: string; keys: StoredKey[]; lookedAt: number; rotations: number } | undefined
  let watcher: fs.FSWatcher | undefined
  const forget = () => {
    cached = undefined
    watcher?.close()
    watcher = undefined
  }
  return () => {
    const now = performance.now()
    if (cached && watcher && cached.rotations === rotationsInThisProcess && now - cached.lookedAt < KEY_FILE_RECHECK_MS) return cached.keys
    // Watched before the look, so a rewrite during it is noticed. The rewrite renames a new file over
    // the old one, which ends this watch (it follows the old inode): the next look watches the new one.
    watcher ??= watchQuietly(file, forget)
    const { ino, mtimeMs } = fs.statSync(file)
    const version = `${ino}:${mtimeMs}`
    const keys = cached?.version === version ? cached.keys : readKeyFile(file)
    cached = { version, keys, lookedAt: now, rotations: rotationsInThisProcess }
    return keys
  }
}

/** A change notice for `file` that does not keep the process alive; undefined where the file system gives none. */
function watchQuietly(file: string, onChange: () => void): fs.FSWatcher | undefined {
  try {
    return fs.watch(file, { persistent: false }, onChange).on('error', onChange)
  } catch {
    return undefined
  }
}

function readKeyFile(file: string): StoredKey[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as StoredKey[]
}

/**
 * Adds a new key of every algorithm in front (Ed25519 first, so it signs the hub's tokens), marks
 * the previous ones retired (still published until their tokens have expired) and drops keys
 * retired longer ago than that. Returns the new keys' ids, the hub's own signing key first.
 */
export async function rotateSigningKeys(dataDir: string, now: Date): Promise<string[]> {
  const file = path.join(dataDir, SIGNING_KEYS_FILE)
  const existing = fs.existsSync(file) ? readKeyFile(file) : []
  const fresh = await generateKeySet(now)
  const kept = existing
    .map((stored) => (stored.retiredAt ? stored : { ...stored, retiredAt: now.toISOString() }))
    .filter((stored) => isPublished(stored, now))
  writeSecretFile(file, JSON.stringify([...fresh, ...kept], null, 2), { exclusive: false })
  rotationsInThisProcess++
  return fresh.map((stored) => requireKid(stored.privateJwk))
}

/** A key of each generated algorithm, made side by side (the RSA key takes the time). */
export function generateKeySet(now: Date): Promise<StoredKey[]> {
  return Promise.all(GENERATED_ALGORITHMS.map((alg) => generateStoredKey(now, alg)))
}

export async function generateStoredKey(now: Date, alg: SigningAlgorithm = 'EdDSA'): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: RSA_MODULUS_LENGTH } : {}) })
  const jwk = await exportJWK(privateKey)
  const kid = await calculateJwkThumbprint(jwk)
  return { privateJwk: { ...jwk, kid, alg, use: 'sig' }, createdAt: now.toISOString() }
}

function publicHalf(jwk: JWK): PublicJwk {
  const { kty, crv, x, y, n, e, use } = jwk
  const alg = algorithmOf(jwk)
  const common = { kid: requireKid(jwk), use: use ?? 'sig', alg }
  if (kty === 'RSA') {
    if (!n || !e) throw new Error('A signing key is incomplete')
    return { kty, n, e, ...common }
  }
  if (!kty || !crv || !x) throw new Error('A signing key is incomplete')
  return { kty, crv, x, ...(y ? { y } : {}), ...common }
}

function algorithmOf(jwk: JWK): SigningAlgorithm {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA'
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256'
  // An RSA key could sign with PS256 too; the hub offers RS256, the one OpenID Connect requires.
  if (jwk.kty === 'RSA' && Buffer.from(jwk.n ?? '', 'base64url').length * 8 >= RSA_MODULUS_LENGTH) return 'RS256'
  throw new Error(`Unsupported signing key: ${jwk.kty ?? '?'} ${jwk.crv ?? ''} (use Ed25519, P-256 or RSA of at least ${RSA_MODULUS_LENGTH} bits)`)
}

function requireKid(jwk: JWK): string {
  if (!jwk.kid) throw new Error('A signing key has no kid')
  return jwk.kid
}
