import { badRequest } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { GenerateTokenBody, GenerateTokenResponse, Jwks } from '../../kernel/http/schemas.js'
import type { AddedClaims } from '../../kernel/tokens/claims.js'
import type { Keyring, PublicJwk } from '../../kernel/tokens/keyring.js'
import type { SsoIdentityOf } from '../../kernel/tokens/sso-identity.js'
import { issueSsoToken } from '../../kernel/tokens/sso-tokens.js'

export interface SsoDependencies {
  keyring: Keyring
  /** The hub's public URL: every token's issuer. */
  issuer: string
  /** Registered applications by name. */
  apps: Record<string, string>
  /** What the token says of the session's person: `email`, `email_verified`, `name`. */
  identityOf: SsoIdentityOf
  /** The claims features add: billing's plan and entitlements (docs/billing.md). */
  addedClaims: AddedClaims
  audit: AuditRequest
  now: () => Date
}

/** Applications cache the key set; a rotated-in key is found anyway, since verifiers refetch on an unknown kid. */
const JWKS_CACHE_SECONDS = 300

export async function ssoRoutes(app: App, { keyring, issuer, apps, identityOf, addedClaims, audit, now }: SsoDependencies) {
  // Signed out, a path below that matches no route answers 401 like the route, not 404.
  app.unknownPaths('/api/auth/generate-token', { session: 'required' })
  app.post(
    '/api/auth/generate-token',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Issue a five-minute SSO token for a registered application',
        tags: ['sso'],
        body: GenerateTokenBody,
        response: { 200: GenerateTokenResponse, ...errorResponses(400, 401, 403) }
      }
    },
    async (request) => {
      const { audience } = request.body
      if (!Object.hasOwn(apps, audience)) {
        throw badRequest(`Audience must be a registered application: ${Object.keys(apps).join(', ')}`)
      }
      const session = sessionOf(request)
      const { userId } = session
      const [identity, added] = await Promise.all([identityOf(session), addedClaims.of(userId, now())])
      const { token, expiresAt } = await issueSsoToken(keyring, issuer, { ...added, userId, audience, ...identity }, now())
      await audit(request, { userId, type: 'sso-token.issued', detail: { audience } })
      return { token, expiresAt: expiresAt.toISOString() }
    }
  )

  let written: { jwks: ReturnType<Keyring['publicJwks']>; body: string } | undefined
  app.get(
    '/.well-known/jwks.json',
    {
      schema: { summary: "The public keys that verify the hub's tokens", tags: ['sso'], response: { 200: Jwks } },
      // Replayed before routing while the published set stays the same object (kernel/pipeline/fixed-documents.ts).
      config: { fixedDocument: () => keyring.publicJwks(now()) }
    },
    async (_request, reply) => {
      // Sent from memory (issue 32): written again only when the keyring's published set is a new
      // object, at a rotation or when a retired key's retention ends. The schema above documents it.
      const jwks = keyring.publicJwks(now())
      if (written?.jwks !== jwks) written = { jwks, body: JSON.stringify(jwks) }
      const { body } = written
      return reply
        .header('cache-control', `public, max-age=${JWKS_CACHE_SECONDS}`)
        .type('application/json; charset=utf-8')
        .serializer(() => body)
        .send(jwks as { keys: PublicJwk[] })
    }
  )
}
