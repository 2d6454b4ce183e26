import { type Static, Type } from 'typebox'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'

/** Real JWTs are a few kilobytes at most. */
const TOKEN_MAX_LENGTH = 8192
const USER_ID_MAX_LENGTH = 256

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC' })

export const SignupResponse = Type.Object({ userId: Type.String() })

export const LoginResponse = Type.Object({
  userId: Type.String(),
  idToken: Type.String({ description: 'A JWT from the built-in identity provider for one set-cookie, valid two minutes' }),
  expiresAt: Timestamp
})

export const SetCookieBody = Type.Object({
  userId: Type.String({ minLength: 1, maxLength: USER_ID_MAX_LENGTH, [PLAIN_TEXT]: true }),
  // Optional in the schema so that a bare user id is refused as unauthenticated (401), not malformed.
  idToken: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: TOKEN_MAX_LENGTH,
      description: "The identity provider's ID token for userId; without it, or unless it verifies, 401 and no cookie"
    })
  )
})
export type SetCookieBody = Static<typeof SetCookieBody>

export const SessionResponse = Type.Object({
  userId: Type.String(),
  expiresAt: Type.String({ format: 'date-time', description: "When the auth cookie expires unless refreshed" })
})

export const RefreshResponse = Type.Object({ expiresAt: Timestamp })

export const GenerateTokenBody = Type.Object({
  audience: Type.String({ minLength: 1, maxLength: 64, description: 'A registered application (HUB_APPS)' })
})
export type GenerateTokenBody = Static<typeof GenerateTokenBody>

export const GenerateTokenResponse = Type.Object({
  token: Type.String({ description: 'JWT: iss, sub, aud, iat, exp (5 minutes), jti, email' }),
  expiresAt: Timestamp
})

/** An Ed25519 (OKP: crv, x), P-256 (EC: crv, x, y) or RSA (n, e) public key. */
const PublicJwk = Type.Object({
  kty: Type.String(),
  crv: Type.Optional(Type.String()),
  x: Type.Optional(Type.String()),
  y: Type.Optional(Type.String()),
  n: Type.Optional(Type.String()),
  e: Type.Optional(Type.String()),
  kid: Type.String(),
  use: Type.String(),
  alg: Type.String()
})
export const Jwks = Type.Object({ keys: Type.Array(PublicJwk) })
