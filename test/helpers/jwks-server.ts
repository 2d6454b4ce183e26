import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose'

export interface SigningKey {
  kid: string
  alg: 'EdDSA' | 'ES256'
  privateKey: CryptoKey
  publicJwk: JWK
}

export async function newSigningKey(kid: string, alg: SigningKey['alg'] = 'EdDSA'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } }
}

/** `typ` is the header's type, omitted unless given (SSO tokens must carry theirs). */
export async function signToken(key: SigningKey, claims: JWTPayload, expiresIn: string | number = '5m', typ?: string): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, ...(typ === undefined ? {} : { typ }) })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key.privateKey)
}

/** An identity provider's JWKS endpoint on loopback, whose published keys a test can change. */
export async function startJwksServer(initial: SigningKey[]) {
  let keys = initial
  let fetches = 0
  const server = http.createServer((request, response) => {
    fetches++
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ keys: keys.map((key) => key.publicJwk) }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`),
    publish(next: SigningKey[]) {
      keys = next
    },
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
