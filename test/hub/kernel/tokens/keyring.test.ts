import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SignJWT, importJWK, jwtVerify } from 'jose'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RETIRED_KEY_RETENTION_MS, SIGNING_KEYS_FILE, type StoredKey, generateKeySet, generateStoredKey, openKeyring, rotateSigningKeys } from '../../../../src/hub/kernel/tokens/keyring.js'

const now = new Date('2030-01-01T00:00:00.000Z')

describe('the signing keyring in DATA_DIR', () => {
  let dataDir: string
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-keyring-'))
  })
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const keyFile = () => JSON.parse(fs.readFileSync(path.join(dataDir, SIGNING_KEYS_FILE), 'utf8')) as StoredKey[]
  const algorithmsOf = (keys: StoredKey[]) => keys.map((key) => [key.privateJwk.alg, key.retiredAt === undefined ? 'live' : 'retired'])

  it('makes a key of each algorithm at first start, the Ed25519 one first (it signs the hub’s own tokens), readable by the owner only', async () => {
    const keyring = await openKeyring({ signingKey: undefined, dataDir, now })
    expect(algorithmsOf(keyFile())).toEqual([
      ['EdDSA', 'live'],
      ['RS256', 'live'],
      ['ES256', 'live']
    ])
    expect(fs.statSync(path.join(dataDir, SIGNING_KEYS_FILE)).mode & 0o777).toBe(0o600)
    expect((await keyring.signingKey()).alg).toBe('EdDSA')
    expect(keyring.algorithms(now)).toEqual(['EdDSA', 'RS256', 'ES256'])
    const rsa = keyring.publicJwks(now).keys[1]
    expect(rsa).toMatchObject({ kty: 'RSA', alg: 'RS256', e: 'AQAB', use: 'sig' })
    expect(Buffer.from(rsa?.n ?? '', 'base64url')).toHaveLength(256)
    expect(Object.keys(rsa ?? {}).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use'])
  })

  it('upgrades a key file of one Ed25519 key: the others are added after it, and a token it signed still verifies', async () => {
    const old = await generateStoredKey(new Date('2029-01-01T00:00:00.000Z'))
    fs.writeFileSync(path.join(dataDir, SIGNING_KEYS_FILE), JSON.stringify([old]), { mode: 0o600 })
    const token = await new SignJWT({ sub: 'someone' })
      .setProtectedHeader({ alg: 'EdDSA', kid: old.privateJwk.kid ?? '' })
      .sign(await importJWK(old.privateJwk, 'EdDSA'))

    const keyring = await openKeyring({ signingKey: undefined, dataDir, now })
    const keys = keyFile()
    expect(keys[0]).toEqual(old)
    expect(algorithmsOf(keys)).toEqual([
      ['EdDSA', 'live'],
      ['RS256', 'live'],
      ['ES256', 'live']
    ])
    expect((await keyring.signingKey()).kid).toBe(old.privateJwk.kid)
    await expect(jwtVerify(token, keyring.verifier(now))).resolves.toBeTruthy()
    // A second start changes nothing.
    await openKeyring({ signingKey: undefined, dataDir, now })
    expect(keyFile()).toEqual(keys)
  })

  it('upgrades a key file whose Ed25519 key was rotated: the retired key stays published, after the live ones', async () => {
    const retired = { ...(await generateStoredKey(now)), retiredAt: now.toISOString() }
    const live = await generateStoredKey(now)
    fs.writeFileSync(path.join(dataDir, SIGNING_KEYS_FILE), JSON.stringify([live, retired]), { mode: 0o600 })
    const keyring = await openKeyring({ signingKey: undefined, dataDir, now })
    expect(algorithmsOf(keyFile())).toEqual([
      ['EdDSA', 'live'],
      ['RS256', 'live'],
      ['ES256', 'live'],
      ['EdDSA', 'retired']
    ])
    expect(keyring.publicJwks(now).keys.map((key) => key.kid)).toContain(retired.privateJwk.kid)
  })

  it('rotates every algorithm at once: the new keys sign, the old ones stay published until their tokens have expired', async () => {
    const keyring = await openKeyring({ signingKey: undefined, dataDir, now })
    const before = keyring.privateJwks(now).map((key) => key.kid)
    const kids = await rotateSigningKeys(dataDir, now)
    expect(kids).toHaveLength(3)
    expect(algorithmsOf(keyFile())).toEqual([
      ['EdDSA', 'live'],
      ['RS256', 'live'],
      ['ES256', 'live'],
      ['EdDSA', 'retired'],
      ['RS256', 'retired'],
      ['ES256', 'retired']
    ])
    // The running keyring reads the rewritten file: the new Ed25519 key signs.
    expect((await keyring.signingKey()).kid).toBe(kids[0])
    expect(keyring.privateJwks(now).map((key) => key.kid)).toEqual([...kids, ...before])
    expect(keyring.algorithms(now)).toEqual(['EdDSA', 'RS256', 'ES256'])
    const later = new Date(now.getTime() + RETIRED_KEY_RETENTION_MS + 1000)
    expect(keyring.publicJwks(later).keys.map((key) => key.kid)).toEqual(kids)
  })

  it('looks at the key file only when it changed, not at every use, and sees another process’s rotation from its change notice', async () => {
    const keyring = await openKeyring({ signingKey: undefined, dataDir, now })
    const before = (await keyring.signingKey()).kid
    const looks = vi.spyOn(fs, 'statSync')
    try {
      for (let use = 0; use < 100; use++) {
        keyring.publicJwks(now)
        keyring.verifier(now)
        await keyring.signingKey()
      }
      expect(looks).not.toHaveBeenCalled()
    } finally {
      looks.mockRestore()
    }
    // Written as `keys:rotate` in another process writes it: a new file renamed over the old one.
    const file = path.join(dataDir, SIGNING_KEYS_FILE)
    const [rotated] = await generateKeySet(now)
    fs.writeFileSync(`${file}.new`, JSON.stringify([rotated, ...keyFile()]), { mode: 0o600 })
    fs.renameSync(`${file}.new`, file)
    await expect.poll(async () => (await keyring.signingKey()).kid, { timeout: 500 }).toBe(rotated?.privateJwk.kid)
    expect(before).not.toBe(rotated?.privateJwk.kid)
  })

  it('offers, with HUB_SIGNING_KEY, the algorithms of the keys given and no others', async () => {
    const { privateJwk } = await generateStoredKey(now, 'RS256')
    const keyring = await openKeyring({ signingKey: JSON.stringify(privateJwk), dataDir: '/nonexistent', now })
    expect(keyring.algorithms(now)).toEqual(['RS256'])
    expect((await keyring.signingKey()).alg).toBe('RS256')
  })

  it('refuses an RSA key shorter than 2048 bits', async () => {
    const { generateKeyPairSync } = await import('node:crypto')
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'jwk' })
    const keyring = await openKeyring({ signingKey: JSON.stringify({ ...short, kid: 'short' }), dataDir: '/nonexistent', now })
    expect(() => keyring.algorithms(now)).toThrow('Unsupported signing key: RSA')
  })
})
