import { type KeyObject, sign } from 'node:crypto'
import type { JWTPayload } from 'jose'
import type { Keyring, SigningAlgorithm } from './keyring.js'

export interface TokenContent {
  issuer: string
  audience: string
  subject: string
  lifetimeSeconds: number
  /** The `typ` header: `JWT` unless the kind of token must be told apart from the others (RFC 8725 3.11). */
  type?: string
  /** Further claims (`email`, `jti`). */
  claims: JWTPayload
}

/**
 * Signs a JWT with the keyring's current key: header `alg`, `kid`, `typ`; `iat` and `exp` from `now`.
 *
 * The compact JWS is put together here and signed with node:crypto's synchronous `sign` rather
 * than with jose, which has only WebCrypto's asynchronous one: that runs each signature in libuv's
 * thread pool, and a token-issuing request spent about a quarter of its time waiting for the round
 * trip (docs/performance.md, issue 21). The header and claims are serialized as jose does (same
 * members, same order), so an Ed25519 token is byte for byte the one jose would sign; tests check
 * that, and verify both algorithms with jose.
 */
export async function signWithKeyring(keyring: Keyring, content: TokenContent, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const { privateKey, kid, alg } = await keyring.signingKey()
  const issuedAt = Math.floor(now.getTime() / 1000)
  const expiresAt = new Date((issuedAt + content.lifetimeSeconds) * 1000)
  const header = { alg, kid, typ: content.type ?? 'JWT' }
  const payload = {
    ...content.claims,
    iss: content.issuer,
    aud: content.audience,
    sub: content.subject,
    iat: issuedAt,
    exp: issuedAt + content.lifetimeSeconds
  }
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`
  const signature = signatureOf(alg, Buffer.from(signingInput), privateKey)
  return { token: `${signingInput}.${signature.toString('base64url')}`, expiresAt }
}

function signatureOf(alg: SigningAlgorithm, input: Buffer, privateKey: KeyObject): Buffer {
  // EdDSA hashes inside the algorithm; ES256 wants the raw r‖s form JWS uses (RFC 7518 3.4), not DER;
  // RS256 is PKCS #1 v1.5 over SHA-256, node's default for an RSA key.
  if (alg === 'EdDSA') return sign(null, input, privateKey)
  if (alg === 'RS256') return sign('sha256', input, privateKey)
  return sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' })
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url')
}
