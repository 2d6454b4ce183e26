import os from 'node:os'
import { type JWK, SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { type SigningAlgorithm, openKeyring } from '../../../../src/hub/kernel/tokens/keyring.js'
import { type TokenContent, signWithKeyring } from '../../../../src/hub/kernel/tokens/signing.js'

const content: TokenContent = {
  issuer: 'https://hub.example',
  audience: 'tasks',
  subject: 'user-1',
  lifetimeSeconds: 300,
  type: 'hearth-sso+jwt',
  claims: { email: 'someone@example.org', email_verified: true, name: 'Ünïcode name', jti: 'a-jti' }
}
const now = new Date('2026-11-25T12:00:00.123Z')

/** The token as jose signed it before signing moved to node:crypto: the reference to match. */
async function signedByJose(privateJwk: JWK, alg: SigningAlgorithm, kid: string): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000)
  return new SignJWT(content.claims)
    .setProtectedHeader({ alg, kid, typ: content.type ?? 'JWT' })
    .setIssuer(content.issuer)
    .setAudience(content.audience)
    .setSubject(content.subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(new Date((issuedAt + content.lifetimeSeconds) * 1000))
    .sign(await importJWK(privateJwk, alg))
}

async function keyringWith(alg: SigningAlgorithm) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) })
  const privateJwk = { ...(await exportJWK(privateKey)), kid: `${alg}-key` }
  const keyring = await openKeyring({ signingKey: JSON.stringify(privateJwk), dataDir: os.tmpdir(), now })
  return { keyring, privateJwk, publicKey }
}

describe('signing tokens with the keyring', () => {
  it('signs an Ed25519 token byte for byte as jose does', async () => {
    const { keyring, privateJwk, publicKey } = await keyringWith('EdDSA')
    const { token, expiresAt } = await signWithKeyring(keyring, content, now)
    // Ed25519 signatures are deterministic, so the whole compact JWS must be the same.
    expect(token).toBe(await signedByJose(privateJwk, 'EdDSA', 'EdDSA-key'))
    const { payload, protectedHeader } = await jwtVerify(token, publicKey, { algorithms: ['EdDSA'], currentDate: now })
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: 'EdDSA-key', typ: 'hearth-sso+jwt' })
    expect(payload.exp).toBe(Math.floor(now.getTime() / 1000) + 300)
    expect(expiresAt.getTime()).toBe((payload.exp ?? 0) * 1000)
  })

  it('signs an ES256 token that jose verifies, with the header and claims jose would write', async () => {
    const { keyring, privateJwk, publicKey } = await keyringWith('ES256')
    const { token } = await signWithKeyring(keyring, content, now)
    // ECDSA signatures are randomized: the signed part must match, and the signature must verify.
    const signedPart = (jws: string) => jws.split('.').slice(0, 2).join('.')
    expect(signedPart(token)).toBe(signedPart(await signedByJose(privateJwk, 'ES256', 'ES256-key')))
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ['ES256'], currentDate: now, audience: 'tasks', issuer: content.issuer })
    expect(payload).toMatchObject({ sub: 'user-1', email: 'someone@example.org', name: 'Ünïcode name', jti: 'a-jti' })
  })

  it('signs an RS256 token byte for byte as jose does', async () => {
    const { keyring, privateJwk, publicKey } = await keyringWith('RS256')
    const { token } = await signWithKeyring(keyring, content, now)
    // PKCS #1 v1.5 signatures are deterministic, like Ed25519's.
    expect(token).toBe(await signedByJose(privateJwk, 'RS256', 'RS256-key'))
    await expect(jwtVerify(token, publicKey, { algorithms: ['RS256'], currentDate: now })).resolves.toBeTruthy()
  })
})
