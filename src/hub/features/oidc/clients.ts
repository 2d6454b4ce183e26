import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import { type Param, prepareQuery } from '../../../shared/database/prepared-query.js'
import type { Database, OidcClientsTable } from '../../../shared/database/schema.js'
import { isUniqueViolation } from '../../../shared/database/unique-violation.js'
import { DISPLAY_NAME_MAX_LENGTH, normaliseDisplayName, visibleNameProblem } from '../../kernel/accounts/display-name.js'
import { groupsById, groupsNamed, isInAnyGroup } from '../../kernel/accounts/groups.js'

/**
 * Client ids appear in URLs, the CLI and consent records, whose purpose `oidc:<id>` must itself be
 * a valid purpose (at most 64 characters of the same alphabet): a short, plain spelling.
 */
export const CLIENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,58}$/
const SECRET_BYTES = 32
const SECRET_HASH_PREFIX = 'sha256:'
/** Enough for every address an application answers at; few enough that the console lists them. */
export const MAX_URIS = 20
/** Longer than any real callback; short enough for a database row and a page. */
export const MAX_URI_LENGTH = 2000
/** A client's name follows the rules of a person's display name (visible characters, at most this many). */
export const CLIENT_NAME_MAX_LENGTH = DISPLAY_NAME_MAX_LENGTH
/** What a client's ID tokens may be signed with (docs/oidc.md); EdDSA unless the application needs another. */
export const ID_TOKEN_ALGORITHMS = ['EdDSA', 'RS256', 'ES256'] as const
export type IdTokenAlgorithm = (typeof ID_TOKEN_ALGORITHMS)[number]
/** Whether a confidential client must send PKCE; a public client always must. */
export const PKCE_POLICIES = ['required', 'optional'] as const
export type PkcePolicy = (typeof PKCE_POLICIES)[number]
/** How a client proves itself at the token endpoint: `none` is the public clients', the only one they have. */
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const
export type AuthMethod = (typeof AUTH_METHODS)[number]
/** An image address fits in far less; short enough for a CSP header and a page. */
export const LOGO_URL_MAX_LENGTH = 1000

export interface NewOidcClient {
  id: string
  name: string
  redirectUris: string[]
  postLogoutRedirectUris: string[]
  backchannelLogoutUri?: string
  public: boolean
  firstParty: boolean
  /** The names of the groups whose members alone may use it (issue 30); absent or empty, everyone may. */
  allowedGroups?: string[]
  /** EdDSA when not given. */
  idTokenAlg?: IdTokenAlgorithm
  /** `required` when not given; a public client's is always `required`. */
  pkce?: PkcePolicy
  /** `client_secret_basic` for a confidential client when not given; a public client's is always `none`. */
  authMethod?: AuthMethod
  logoUrl?: string
}

export interface OidcClient extends Omit<NewOidcClient, 'backchannelLogoutUri' | 'allowedGroups' | 'idTokenAlg' | 'pkce' | 'authMethod' | 'logoUrl'> {
  backchannelLogoutUri: string | null
  /** The names of the groups it is limited to that exist, by name; empty when everyone may use it. */
  allowedGroups: string[]
  /**
   * Whether only members of `allowedGroups` may use it. True with an empty list when every group it
   * was limited to has been deleted: then nobody may, until an administrator chooses again.
   */
  limitedToGroups: boolean
  idTokenAlg: IdTokenAlgorithm
  pkce: PkcePolicy
  authMethod: AuthMethod
  logoUrl: string | null
  createdAt: string
}

/** What a registration or a change may change: every part but the id and the kind (public or confidential). */
export interface OidcClientChanges {
  name?: string
  redirectUris?: string[]
  postLogoutRedirectUris?: string[]
  /** null removes it. */
  backchannelLogoutUri?: string | null
  firstParty?: boolean
  /** Replaces the groups it is limited to, by name; empty, everyone may use it. */
  allowedGroups?: string[]
  idTokenAlg?: IdTokenAlgorithm
  pkce?: PkcePolicy
  authMethod?: AuthMethod
  /** null removes it. */
  logoUrl?: string | null
}

/**
 * Why a registration, a change or a rotation was refused: a stable `problem` the console words in
 * its language, and an English message the CLI prints and the admin API answers (`{error}`).
 */
export type OidcClientProblem =
  | 'id'
  | 'name'
  | 'no-redirect-uri'
  | 'too-many-uris'
  | 'uri'
  | 'taken'
  | 'unknown'
  | 'public-has-no-secret'
  | 'unknown-group'
  | 'id-token-alg'
  | 'pkce'
  | 'auth-method'
  | 'native-uri'
  | 'logo-url'

export class OidcClientError extends Error {
  constructor(
    readonly problem: OidcClientProblem,
    message: string,
    /** The URI refused (`uri`), or the group names no group has (`unknown-group`), for the console's message. */
    readonly uri?: string
  ) {
    super(message)
    this.name = 'OidcClientError'
  }
}

export const UNKNOWN_CLIENT_ID = 'No client has this id'
export const PUBLIC_CLIENT_HAS_NO_SECRET = 'A public client has no secret to rotate: PKCE is its only proof'

export type OidcClients = ReturnType<typeof createOidcClients>

/** The refusal of a group name no group has, naming them all. */
export function unknownGroupsMessage(names: readonly string[]): string {
  return `No group is named ${names.map((name) => JSON.stringify(name)).join(', ')}: make it first (groups:add or the console's Groups)`
}

/**
 * The ids of the groups named (whatever their case), stored so a renamed group keeps the limit;
 * refused, naming them, when one does not exist.
 */
async function allowedGroupIds(db: Kysely<Database>, names: readonly string[]): Promise<string[]> {
  const wanted = names.map((name) => name.trim()).filter((name) => name !== '')
  const { groups, unknown } = await groupsNamed(db, wanted)
  if (unknown.length > 0) throw new OidcClientError('unknown-group', unknownGroupsMessage(unknown), unknown.join(', '))
  return groups.map(({ id }) => id).sort()
}

const storedGroupIds = (row: Pick<OidcClientsTable, 'allowedGroups'>): string[] => JSON.parse(row.allowedGroups) as string[]

/**
 * The registered applications. A confidential client's secret is shown once and kept as its
 * SHA-256: it is 256 random bits, so a fast hash is as good as a slow one and costs nothing per
 * token request.
 */
export function createOidcClients(db: Kysely<Database>) {
  // Read at every authorization, token, refresh and userinfo request (the provider's client and
  // the groups check): prepared once, not built and compiled by Kysely at each (docs/performance.md, issue 32).
  const clientById = prepareQuery(db, (param: Param<{ id: string }>) => db.selectFrom('oidcClients').selectAll().where('id', '=', param('id')))
  const allowedGroupsOf = prepareQuery(db, (param: Param<{ id: string }>) => db.selectFrom('oidcClients').select('allowedGroups').where('id', '=', param('id')))
  const rowOf = (id: string) => clientById.first({ id })
  return {
    /** Registers a client; resolves to its secret (confidential clients) or null (public ones). */
    async add(given: NewOidcClient, now: Date): Promise<string | null> {
      const client = validated(given)
      const groupIds = await allowedGroupIds(db, given.allowedGroups ?? [])
      const secret = client.public ? null : randomBytes(SECRET_BYTES).toString('base64url')
      try {
        await db
          .insertInto('oidcClients')
          .values({
            id: client.id,
            name: client.name,
            secretHash: secret === null ? null : hashSecret(secret),
            redirectUris: JSON.stringify(client.redirectUris),
            postLogoutRedirectUris: JSON.stringify(client.postLogoutRedirectUris),
            backchannelLogoutUri: client.backchannelLogoutUri ?? null,
            firstParty: client.firstParty ? 1 : 0,
            allowedGroups: JSON.stringify(groupIds),
            createdAt: now.toISOString(),
            idTokenAlg: client.idTokenAlg ?? 'EdDSA',
            pkce: client.pkce ?? 'required',
            authMethod: client.authMethod ?? (client.public ? 'none' : 'client_secret_basic'),
            logoUrl: client.logoUrl ?? null
          })
          .execute()
      } catch (error) {
        if (isUniqueViolation(error)) throw new OidcClientError('taken', `A client with id ${client.id} already exists`)
        throw error
      }
      return secret
    },

    async list(): Promise<OidcClient[]> {
      const [rows, groups] = await Promise.all([db.selectFrom('oidcClients').selectAll().orderBy('id').execute(), groupsById(db)])
      return rows.map((row) => clientOf(row, groups))
    },

    async find(id: string): Promise<OidcClient | undefined> {
      const row = await rowOf(id)
      return row && clientOf(row, await groupsById(db, storedGroupIds(row)))
    },

    /** The names of every group, by name: what a client may be limited to (the console's choices). */
    async groupNames(): Promise<string[]> {
      return (await groupsById(db)).map(({ name }) => name)
    },

    /**
     * Whether the account may use the client: everyone may use a client limited to no group; a
     * limited one, members of one of its groups that still exists. Asked at the authorization
     * endpoint and at every token, refresh and userinfo answer (provider.ts), so taking someone
     * out of the group ends their use of the application at their next request.
     */
    async allows(id: string, userId: string): Promise<boolean> {
      const row = await allowedGroupsOf.first({ id })
      if (!row) return false
      const groupIds = storedGroupIds(row)
      return groupIds.length === 0 || isInAnyGroup(db, userId, groupIds)
    },

    /**
     * Changes what `changes` names, checked by the rules of `add` on the whole result; resolves to
     * the client as it now is and the fields whose value changed. oidc-provider reads the client
     * again on its next use, so a change counts at once.
     */
    async update(id: string, changes: OidcClientChanges): Promise<{ client: OidcClient; changed: (keyof OidcClientChanges)[] }> {
      const row = await rowOf(id)
      if (!row) throw new OidcClientError('unknown', UNKNOWN_CLIENT_ID)
      const before = clientOf(row, await groupsById(db, storedGroupIds(row)))
      const groupIdsBefore = storedGroupIds(row)
      const groupIds = changes.allowedGroups === undefined ? groupIdsBefore : await allowedGroupIds(db, changes.allowedGroups)
      const backchannelLogoutUri = changes.backchannelLogoutUri === undefined ? before.backchannelLogoutUri : changes.backchannelLogoutUri
      const logoUrl = changes.logoUrl === undefined ? before.logoUrl : changes.logoUrl
      const candidate: NewOidcClient = {
        id,
        name: changes.name ?? before.name,
        redirectUris: changes.redirectUris ?? before.redirectUris,
        postLogoutRedirectUris: changes.postLogoutRedirectUris ?? before.postLogoutRedirectUris,
        ...(backchannelLogoutUri ? { backchannelLogoutUri } : {}),
        public: before.public,
        firstParty: changes.firstParty ?? before.firstParty,
        idTokenAlg: changes.idTokenAlg ?? before.idTokenAlg,
        pkce: changes.pkce ?? before.pkce,
        authMethod: changes.authMethod ?? before.authMethod,
        ...(logoUrl ? { logoUrl } : {})
      }
      // A name kept as it is stays, even one registered before names had rules.
      const merged = validated(candidate, { checkName: candidate.name !== before.name })
      const allowedGroups = changes.allowedGroups === undefined ? before.allowedGroups : (await groupsById(db, groupIds)).map(({ name }) => name)
      const after: OidcClient = {
        ...before,
        ...merged,
        backchannelLogoutUri: merged.backchannelLogoutUri ?? null,
        allowedGroups,
        limitedToGroups: groupIds.length > 0,
        idTokenAlg: merged.idTokenAlg ?? before.idTokenAlg,
        pkce: merged.pkce ?? before.pkce,
        authMethod: merged.authMethod ?? before.authMethod,
        logoUrl: merged.logoUrl ?? null
      }
      const changed: (keyof OidcClientChanges)[] = (
        ['name', 'redirectUris', 'postLogoutRedirectUris', 'backchannelLogoutUri', 'firstParty', 'idTokenAlg', 'pkce', 'authMethod', 'logoUrl'] as const
      ).filter(
        (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field])
      )
      if (JSON.stringify(groupIds) !== JSON.stringify([...groupIdsBefore].sort())) changed.push('allowedGroups')
      if (changed.length > 0) {
        const updated = await db
          .updateTable('oidcClients')
          .set({
            name: after.name,
            redirectUris: JSON.stringify(after.redirectUris),
            postLogoutRedirectUris: JSON.stringify(after.postLogoutRedirectUris),
            backchannelLogoutUri: after.backchannelLogoutUri,
            firstParty: after.firstParty ? 1 : 0,
            allowedGroups: JSON.stringify(groupIds),
            idTokenAlg: after.idTokenAlg,
            pkce: after.pkce,
            authMethod: after.authMethod,
            logoUrl: after.logoUrl
          })
          .where('id', '=', id)
          .executeTakeFirst()
        if (updated.numUpdatedRows === 0n) throw new OidcClientError('unknown', UNKNOWN_CLIENT_ID)
      }
      return { client: after, changed }
    },

    /**
     * A confidential client's new secret, shown once; the old one stops working at once (the
     * provider reads the client's hash on each use). Tokens already issued stay valid until they
     * expire; refreshing them takes the new secret.
     */
    async rotateSecret(id: string): Promise<string> {
      const row = await rowOf(id)
      if (!row) throw new OidcClientError('unknown', UNKNOWN_CLIENT_ID)
      if (row.secretHash === null) throw new OidcClientError('public-has-no-secret', PUBLIC_CLIENT_HAS_NO_SECRET)
      const secret = randomBytes(SECRET_BYTES).toString('base64url')
      const updated = await db.updateTable('oidcClients').set({ secretHash: hashSecret(secret) }).where('id', '=', id).where('secretHash', 'is not', null).executeTakeFirst()
      if (updated.numUpdatedRows === 0n) throw new OidcClientError('unknown', UNKNOWN_CLIENT_ID)
      return secret
    },

    /** Whether a client was removed. Its grants and tokens go with it. */
    async remove(id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('oidcClients').where('id', '=', id).executeTakeFirst()
        await trx.deleteFrom('oidcProviderRecords').where('clientId', '=', id).execute()
        return removed.numDeletedRows > 0n
      })
    },

    /**
     * The client as oidc-provider reads it. `client_secret` is the stored hash: the provider
     * requires one for secret-based authentication and hands the presented secret to
     * `secretMatches`, never comparing the two itself (see provider.ts).
     */
    async metadataOf(id: string): Promise<Record<string, unknown> | undefined> {
      const row = await rowOf(id)
      if (!row) return undefined
      // The provider's metadata names no group (the groups are checked in its policy), so none is looked up.
      const client = clientOf(row, [])
      return {
        client_id: row.id,
        client_name: row.name,
        redirect_uris: client.redirectUris,
        post_logout_redirect_uris: client.postLogoutRedirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // RFC 8252: the provider then accepts a registered loopback redirect on any port.
        application_type: isNativeApplication(client) ? 'native' : 'web',
        id_token_signed_response_alg: client.idTokenAlg,
        [PKCE_METADATA]: client.pkce,
        ...(client.logoUrl === null ? {} : { logo_uri: client.logoUrl }),
        ...(row.secretHash === null
          ? { token_endpoint_auth_method: 'none' }
          : { client_secret: row.secretHash, token_endpoint_auth_method: client.authMethod }),
        ...(row.backchannelLogoutUri === null ? {} : { backchannel_logout_uri: row.backchannelLogoutUri, backchannel_logout_session_required: true })
      }
    },

    /** The back-channel logout URLs registered: the only places the provider may send a request. */
    async backchannelLogoutUris(): Promise<Set<string>> {
      const rows = await db.selectFrom('oidcClients').select('backchannelLogoutUri').where('backchannelLogoutUri', 'is not', null).execute()
      return new Set(rows.map((row) => row.backchannelLogoutUri as string))
    }
  }
}

/** The client metadata (oidc-provider's `extraClientMetadata`) that carries the client's PKCE policy to `pkce.required`. */
export const PKCE_METADATA = 'hearth_pkce'

export function hashSecret(secret: string): string {
  return SECRET_HASH_PREFIX + createHash('sha256').update(secret, 'utf8').digest('base64url')
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(storedHash: string, presented: string): boolean {
  const expected = Buffer.from(storedHash)
  const actual = Buffer.from(hashSecret(presented))
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/**
 * The rules of every registration and change, whoever makes it (the CLI, the admin API, the
 * console): the client as stored (name normalised, each list without repeats), or the first
 * problem found.
 */
function validated(client: NewOidcClient, { checkName = true } = {}): NewOidcClient {
  if (!CLIENT_ID_PATTERN.test(client.id)) throw new OidcClientError('id', 'The client id must be 1 to 59 characters: lower-case letters, digits, "_" or "-"')
  const nameProblem = checkName ? visibleNameProblem('The client name', client.name) : null
  if (nameProblem) throw new OidcClientError('name', nameProblem)
  const redirectUris = [...new Set(client.redirectUris)]
  const postLogoutRedirectUris = [...new Set(client.postLogoutRedirectUris)]
  if (redirectUris.length === 0) throw new OidcClientError('no-redirect-uri', 'A client needs at least one redirect URI')
  if (redirectUris.length > MAX_URIS || postLogoutRedirectUris.length > MAX_URIS) {
    throw new OidcClientError('too-many-uris', `A client has at most ${MAX_URIS} redirect URIs and ${MAX_URIS} post-logout redirect URIs`)
  }
  for (const uri of [...redirectUris, ...postLogoutRedirectUris, ...(client.backchannelLogoutUri ? [client.backchannelLogoutUri] : [])]) {
    if (uri.length > MAX_URI_LENGTH) throw new OidcClientError('uri', `A URI may be at most ${MAX_URI_LENGTH} characters`, uri)
  }
  for (const uri of [...redirectUris, ...postLogoutRedirectUris]) {
    if (isPrivateUseUri(uri)) {
      if (!client.public) {
        throw new OidcClientError(
          'native-uri',
          `A private-use URI scheme is for native applications, which are public clients (they can keep no secret): register ${uri} on a public client`,
          uri
        )
      }
    } else if (!isWebUrl(uri)) {
      const expected = client.public ? 'an http(s) URL nor a private-use scheme of a reverse domain name (com.example.app:/callback)' : 'an http(s) URL'
      throw new OidcClientError('uri', `Not ${expected} without a fragment: ${uri}`, uri)
    }
  }
  if (client.backchannelLogoutUri && !isWebUrl(client.backchannelLogoutUri)) {
    throw new OidcClientError('uri', `Not an http(s) URL without a fragment: ${client.backchannelLogoutUri}`, client.backchannelLogoutUri)
  }
  const uris = [...redirectUris, ...postLogoutRedirectUris]
  if (uris.some(isPrivateUseUri) && !uris.every(suitsNativeApplication)) {
    throw new OidcClientError(
      'native-uri',
      'A native application (one with a private-use URI scheme) redirects only to private-use schemes, to http on a loopback address (127.0.0.1, [::1], localhost) or to https on another host',
      uris.find((uri) => !suitsNativeApplication(uri))
    )
  }
  const idTokenAlg = client.idTokenAlg ?? 'EdDSA'
  if (!(ID_TOKEN_ALGORITHMS as readonly string[]).includes(idTokenAlg)) {
    throw new OidcClientError('id-token-alg', `The ID token algorithm must be one of ${ID_TOKEN_ALGORITHMS.join(', ')}`)
  }
  const pkce = client.pkce ?? 'required'
  if (!(PKCE_POLICIES as readonly string[]).includes(pkce)) throw new OidcClientError('pkce', 'PKCE must be required or optional')
  if (client.public && pkce !== 'required') throw new OidcClientError('pkce', 'A public client always uses PKCE: it is its only proof')
  const authMethod = client.authMethod ?? (client.public ? 'none' : 'client_secret_basic')
  if (!(AUTH_METHODS as readonly string[]).includes(authMethod)) {
    throw new OidcClientError('auth-method', `The token endpoint authentication method must be one of ${AUTH_METHODS.join(', ')}`)
  }
  if (client.public && authMethod !== 'none') throw new OidcClientError('auth-method', 'A public client has no secret: its authentication method is none')
  if (!client.public && authMethod === 'none') {
    throw new OidcClientError('auth-method', 'A confidential client proves itself with its secret: client_secret_basic or client_secret_post')
  }
  if (client.logoUrl !== undefined) {
    const problem = logoUrlProblem(client.logoUrl)
    if (problem) throw new OidcClientError('logo-url', problem)
  }
  const { backchannelLogoutUri, logoUrl, ...rest } = client
  return {
    ...rest,
    name: checkName ? normaliseDisplayName(client.name) : client.name,
    redirectUris,
    postLogoutRedirectUris,
    ...(backchannelLogoutUri ? { backchannelLogoutUri } : {}),
    idTokenAlg,
    pkce,
    authMethod,
    ...(logoUrl ? { logoUrl } : {})
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])
/** RFC 8252 7.1: a scheme of a reverse domain name (a dot in it), so that it names its application. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:/

/** A private-use URI scheme redirect (`app.immich:///oauth-callback`, `com.example.app:/callback`), without a fragment. */
export function isPrivateUseUri(value: string): boolean {
  if (!PRIVATE_USE_SCHEME.test(value)) return false
  const url = URL.parse(value)
  return url !== null && !value.includes('#') && url.protocol !== 'http:' && url.protocol !== 'https:'
}

/** What a native application may redirect to (RFC 8252 7): oidc-provider's rules for `application_type: native`. */
function suitsNativeApplication(uri: string): boolean {
  if (isPrivateUseUri(uri)) return true
  const url = URL.parse(uri)
  if (!url) return false
  return url.protocol === 'http:' ? LOOPBACK_HOSTS.has(url.hostname) : url.protocol === 'https:' && !LOOPBACK_HOSTS.has(url.hostname)
}

/**
 * A public client is a native application (RFC 8252) when it redirects to a private-use scheme or
 * to http on a loopback address, and everything it redirects to suits one: the provider then
 * accepts its loopback redirects on any port (7.3), the port the application got from its system.
 * A public client that also redirects to http on another host stays a web one, matched exactly.
 */
export function isNativeApplication(client: Pick<OidcClient, 'public' | 'redirectUris' | 'postLogoutRedirectUris'>): boolean {
  if (!client.public) return false
  const uris = [...client.redirectUris, ...client.postLogoutRedirectUris]
  const isLoopbackHttp = (uri: string) => {
    const url = URL.parse(uri)
    return url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)
  }
  return uris.every(suitsNativeApplication) && uris.some((uri) => isPrivateUseUri(uri) || isLoopbackHttp(uri))
}

/**
 * A logo is shown on the consent page, /account and the console, so the browser fetches it: over
 * https, or http on the hub's own machine (a household trying things out), never with credentials
 * in it nor a fragment, and not longer than LOGO_URL_MAX_LENGTH.
 */
export function logoUrlProblem(value: string): string | null {
  if (value.length > LOGO_URL_MAX_LENGTH) return `A logo URL may be at most ${LOGO_URL_MAX_LENGTH} characters`
  const url = URL.parse(value)
  const local = url !== null && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)
  // The address goes into the page's CSP as an image source (policyWithImages), where these would end it.
  const breaksPolicy = /[;,'"\s]/.test(value)
  if (!url || !(url.protocol === 'https:' || local) || url.username !== '' || url.password !== '' || value.includes('#') || url.href !== value || breaksPolicy) {
    return 'A logo URL must be an https URL (http only on localhost), without a fragment or credentials, written in full (https://photos.example/logo.png)'
  }
  return null
}

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hash === ''
  } catch {
    return false
  }
}

/** The client of a row; `groups`, the existing groups (at least those it names), to name its groups. */
function clientOf(row: OidcClientsTable, groups: readonly { id: string; name: string }[]): OidcClient {
  const groupIds = new Set(storedGroupIds(row))
  return {
    id: row.id,
    name: row.name,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris) as string[],
    backchannelLogoutUri: row.backchannelLogoutUri,
    public: row.secretHash === null,
    firstParty: row.firstParty === 1,
    allowedGroups: groups.filter(({ id }) => groupIds.has(id)).map(({ name }) => name),
    limitedToGroups: groupIds.size > 0,
    idTokenAlg: row.idTokenAlg as IdTokenAlgorithm,
    pkce: row.pkce as PkcePolicy,
    authMethod: row.authMethod as AuthMethod,
    logoUrl: row.logoUrl,
    createdAt: row.createdAt
  }
}
