import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { type HttpError, badRequest, notFound } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { conflict } from '../../kernel/http/http-errors.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import {
  AUTH_METHODS,
  CLIENT_NAME_MAX_LENGTH,
  ID_TOKEN_ALGORITHMS,
  LOGO_URL_MAX_LENGTH,
  MAX_URIS,
  MAX_URI_LENGTH,
  type OidcClient,
  OidcClientError,
  type OidcClients,
  PKCE_POLICIES,
  UNKNOWN_CLIENT_ID
} from './clients.js'

export const ADMIN_CLIENTS_PATH = '/api/admin/clients'
const tags = ['administration']

const IdTokenAlg = Type.Union(
  [Type.Literal(ID_TOKEN_ALGORITHMS[0]), Type.Literal(ID_TOKEN_ALGORITHMS[1]), Type.Literal(ID_TOKEN_ALGORITHMS[2])],
  { description: 'What the client’s ID tokens are signed with: EdDSA by default; RS256 for applications that know no other' }
)
const Pkce = Type.Union(
  [Type.Literal(PKCE_POLICIES[0]), Type.Literal(PKCE_POLICIES[1])],
  { description: 'Whether the client must use PKCE: `required` by default, always for a public client' }
)
const AuthMethod = Type.Union(
  [Type.Literal(AUTH_METHODS[0]), Type.Literal(AUTH_METHODS[1]), Type.Literal(AUTH_METHODS[2])],
  { description: 'How the client sends its secret to the token endpoint: `client_secret_basic` by default, `client_secret_post`; `none` for a public client (always)' }
)
const LogoUrl = Type.String({ description: `An https URL (http only on localhost) of the logo the consent page, /account and the console show; at most ${LOGO_URL_MAX_LENGTH} characters` })

/**
 * An application as the admin API and the console show it. Issue 30 adds its ID token algorithm,
 * PKCE, authentication method, groups and logo here and in `clientView`.
 */
export const AdminClient = Type.Object({
  clientId: Type.String({ description: 'What the application signs in as; fixed at registration' }),
  name: Type.String({ description: 'What the consent page, the account page and the console show' }),
  public: Type.Boolean({ description: 'A client without a secret (PKCE is its proof); fixed at registration' }),
  firstParty: Type.Boolean({ description: 'The family’s own application: no consent page' }),
  redirectUris: Type.Array(Type.String(), { description: 'Where the hub sends the browser back with a code, matched exactly' }),
  postLogoutRedirectUris: Type.Array(Type.String(), { description: 'Where the hub may send the browser after signing out' }),
  backchannelLogoutUri: Type.Union([Type.String(), Type.Null()], { description: 'Where the hub tells the application that a session ended' }),
  allowedGroups: Type.Array(Type.String(), { description: 'The names of the groups whose members alone may sign in to it, by name; empty, everyone may' }),
  limitedToGroups: Type.Boolean({
    description: 'Whether only members of allowedGroups may sign in: true with an empty allowedGroups when every group it was limited to has been deleted (then nobody may, until groups are chosen again)'
  }),
  createdAt: Type.String({ format: 'date-time' }),
  idTokenAlg: IdTokenAlg,
  pkce: Pkce,
  authMethod: AuthMethod,
  logoUrl: Type.Union([LogoUrl, Type.Null()])
})

const Secret = Type.String({ description: 'The client secret: shown this once, only its hash is kept' })
const AddedClient = Type.Object({ ...AdminClient.properties, secret: Type.Optional(Secret) }, { description: 'The client; `secret` for a confidential one only' })

const RULES = `The rules of clients:add: ids are 1 to 59 of a-z, 0-9, "_" and "-"; names 1 to ${CLIENT_NAME_MAX_LENGTH} visible characters; URIs http(s) without a fragment, of at most ${MAX_URI_LENGTH} characters; one to ${MAX_URIS} redirect URIs, at most ${MAX_URIS} post-logout ones. A public client may also redirect to a private-use scheme of a reverse domain name (app.immich:///oauth-callback) and to http on a loopback address on any port (RFC 8252); a confidential one never to a private-use scheme. A public client's PKCE is required and its authentication method none`
const UriList = (description: string) => Type.Array(Type.String(), { description })
const AllowedGroups = (description: string) => Type.Array(Type.String({ maxLength: 300 }), { maxItems: 100, description: `Group names, whatever their case, each an existing group's (else 400). ${description}` })
const NewClientBody = Type.Object(
  {
    clientId: Type.String({ description: 'Lower-case letters, digits, "_" or "-"; 1 to 59' }),
    name: Type.Optional(Type.String({ description: 'The client id by default' })),
    redirectUris: UriList('One or more'),
    postLogoutRedirectUris: Type.Optional(UriList('Any number')),
    backchannelLogoutUri: Type.Optional(Type.String()),
    public: Type.Optional(Type.Boolean({ description: 'No secret (a single-page or native application); false by default' })),
    firstParty: Type.Optional(Type.Boolean({ description: 'Skips the consent page; false by default' })),
    allowedGroups: Type.Optional(AllowedGroups('Only their members may sign in to it; none (the default), everyone may')),
    idTokenAlg: Type.Optional(IdTokenAlg),
    pkce: Type.Optional(Pkce),
    authMethod: Type.Optional(AuthMethod),
    logoUrl: Type.Optional(LogoUrl)
  },
  { additionalProperties: false }
)
const ClientChangesBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    redirectUris: Type.Optional(UriList('Replaces the list')),
    postLogoutRedirectUris: Type.Optional(UriList('Replaces the list')),
    backchannelLogoutUri: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'null removes it' })),
    firstParty: Type.Optional(Type.Boolean()),
    allowedGroups: Type.Optional(AllowedGroups('Replaces the list; [] lets everyone sign in to it')),
    idTokenAlg: Type.Optional(IdTokenAlg),
    pkce: Type.Optional(Pkce),
    authMethod: Type.Optional(AuthMethod),
    logoUrl: Type.Optional(Type.Union([LogoUrl, Type.Null()], { description: 'null removes it' }))
  },
  { additionalProperties: false, description: 'Only what is given changes; the id and the kind (public or confidential) never do' }
)
const ClientParams = Type.Object({ clientId: Type.String() })

export interface AdminClientRoutesOptions {
  clients: OidcClients
  audit: AuditRequest
  now: () => Date
}

/** An application as the admin API answers it. */
export function clientView(client: OidcClient) {
  return {
    clientId: client.id,
    name: client.name,
    public: client.public,
    firstParty: client.firstParty,
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    backchannelLogoutUri: client.backchannelLogoutUri,
    allowedGroups: client.allowedGroups,
    limitedToGroups: client.limitedToGroups,
    createdAt: client.createdAt,
    idTokenAlg: client.idTokenAlg,
    pkce: client.pkce,
    authMethod: client.authMethod,
    logoUrl: client.logoUrl
  }
}

/** The HTTP answer to a refused registration, change or rotation: the rules' own message. */
export function httpErrorOf(error: OidcClientError): HttpError {
  switch (error.problem) {
    case 'unknown':
      return notFound(error.message)
    case 'taken':
    case 'public-has-no-secret':
      return conflict(error.message)
    default:
      return badRequest(error.message)
  }
}

/** Runs a change of the clients' rules, answering their refusals as HTTP errors. */
async function answering<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change()
  } catch (error) {
    if (error instanceof OidcClientError) throw httpErrorOf(error)
    throw error
  }
}

/**
 * What an administrator's change of the applications leaves on their own trail: the client's id
 * and name (never a secret).
 */
export function auditClientChange(audit: AuditRequest, request: FastifyRequest, type: 'client.added' | 'client.changed' | 'client.removed' | 'client.secret-rotated', client: { id: string; name: string }, extra: Record<string, unknown> = {}) {
  return audit(request, { userId: sessionOf(request).userId, type, detail: { clientId: client.id, name: client.name, ...extra } })
}

/**
 * The applications (OpenID Connect clients) under /api/admin (docs/administration.md,
 * "Applications"): the same functions as `clients:*`, with the same rules. The provider reads a
 * client on each use, so every change counts at once.
 */
export async function adminClientRoutes(app: App, { clients, audit, now }: AdminClientRoutesOptions) {
  const readConfig = { session: 'required', role: 'admin' } as const
  const changeConfig = { ...readConfig, recentSignIn: true } as const

  app.get(
    ADMIN_CLIENTS_PATH,
    { config: readConfig, schema: { summary: 'List the applications (OpenID Connect clients), by id', tags, response: { 200: Type.Object({ clients: Type.Array(AdminClient) }), ...errorResponses(401, 403) } } },
    async () => ({ clients: (await clients.list()).map(clientView) })
  )

  app.get(
    `${ADMIN_CLIENTS_PATH}/:clientId`,
    { config: readConfig, schema: { summary: 'One application', tags, params: ClientParams, response: { 200: AdminClient, ...errorResponses(401, 403, 404) } } },
    async (request) => {
      const client = await clients.find(request.params.clientId)
      if (!client) throw notFound(UNKNOWN_CLIENT_ID)
      return clientView(client)
    }
  )

  app.post(
    ADMIN_CLIENTS_PATH,
    {
      config: changeConfig,
      schema: {
        summary: 'Register an application; a confidential one’s secret is in this answer only',
        description: RULES,
        tags,
        body: NewClientBody,
        response: { 201: AddedClient, ...errorResponses(400, 401, 403, 409) }
      }
    },
    async (request, reply) => {
      const { clientId, name, redirectUris, postLogoutRedirectUris, backchannelLogoutUri, public: isPublic, firstParty, allowedGroups, idTokenAlg, pkce, authMethod, logoUrl } = request.body
      const secret = await answering(() =>
        clients.add(
          {
            id: clientId,
            name: name ?? clientId,
            redirectUris,
            postLogoutRedirectUris: postLogoutRedirectUris ?? [],
            ...(backchannelLogoutUri ? { backchannelLogoutUri } : {}),
            public: isPublic ?? false,
            firstParty: firstParty ?? false,
            ...(allowedGroups ? { allowedGroups } : {}),
            ...(idTokenAlg ? { idTokenAlg } : {}),
            ...(pkce ? { pkce } : {}),
            ...(authMethod ? { authMethod } : {}),
            ...(logoUrl ? { logoUrl } : {})
          },
          now()
        )
      )
      const client = (await clients.find(clientId)) as OidcClient
      await auditClientChange(audit, request, 'client.added', client)
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ ...clientView(client), ...(secret === null ? {} : { secret }) })
    }
  )

  app.patch(
    `${ADMIN_CLIENTS_PATH}/:clientId`,
    {
      config: changeConfig,
      schema: {
        summary: 'Change an application’s name, logo, redirect URIs, logout URIs, first-party standing, groups, ID token algorithm, PKCE or authentication method; it counts at once',
        description: RULES,
        tags,
        params: ClientParams,
        body: ClientChangesBody,
        response: { 200: AdminClient, ...errorResponses(400, 401, 403, 404) }
      }
    },
    async (request) => {
      const { client, changed } = await answering(() => clients.update(request.params.clientId, request.body))
      if (changed.length > 0) await auditClientChange(audit, request, 'client.changed', client, { changed })
      return clientView(client)
    }
  )

  app.delete(
    `${ADMIN_CLIENTS_PATH}/:clientId`,
    {
      config: changeConfig,
      schema: {
        summary: 'Remove an application: every grant, code and token it holds ends with it, as with clients:remove',
        tags,
        params: ClientParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses(401, 403, 404) }
      }
    },
    async (request, reply) => {
      const client = await clients.find(request.params.clientId)
      if (!client || !(await clients.remove(client.id))) throw notFound(UNKNOWN_CLIENT_ID)
      await auditClientChange(audit, request, 'client.removed', client)
      return reply.code(204).send(null)
    }
  )

  app.post(
    `${ADMIN_CLIENTS_PATH}/:clientId/secret`,
    {
      config: changeConfig,
      schema: {
        summary: 'Replace a confidential application’s secret: the new one is in this answer only, the old one stops working at once; a public client has none (409)',
        tags,
        params: ClientParams,
        response: { 200: Type.Object({ secret: Secret }), ...errorResponses(401, 403, 404, 409) }
      }
    },
    async (request, reply) => {
      const client = await clients.find(request.params.clientId)
      if (!client) throw notFound(UNKNOWN_CLIENT_ID)
      const secret = await answering(() => clients.rotateSecret(client.id))
      await auditClientChange(audit, request, 'client.secret-rotated', client)
      return reply.header('cache-control', 'no-store').send({ secret })
    }
  )
}
