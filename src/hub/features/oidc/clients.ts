import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
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
}

export interface OidcClient extends Omit<NewOidcClient, 'backchannelLogoutUri' | 'allowedGroups'> {
  backchannelLogoutUri: string | null
  /** The names of the groups it is limited to that exist, by name; empty when everyone may use it. */
  allowedGroups: string[]
  /**
   * Whether only members of `allowedGroups` may use it. True with an empty list when every group it
   * was limited to has been deleted: then nobody may, until an administrator chooses again.
   */
  limitedToGroups: boolean
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
}

/**
 * Why a registration, a change or a rotation was refused: a stable `problem` the console words in
 * its language, and an English message the CLI prints and the admin API answers (`{error}`).
 */
export type OidcClientProblem = 'id' | 'name' | 'no-redirect-uri' | 'too-many-uris' | 'uri' | 'taken' | 'unknown' | 'public-has-no-secret' | 'unknown-group'

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
  const rowOf = (id: string) => db.selectFrom('oidcClients').selectAll().where('id', '=', id).executeTakeFirst()
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
            createdAt: now.toISOString()
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
      const row = await db.selectFrom('oidcClients').select('allowedGroups').where('id', '=', id).executeTakeFirst()
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
      const candidate: NewOidcClient = {
        id,
        name: changes.name ?? before.name,
        redirectUris: changes.redirectUris ?? before.redirectUris,
        postLogoutRedirectUris: changes.postLogoutRedirectUris ?? before.postLogoutRedirectUris,
        ...(backchannelLogoutUri ? { backchannelLogoutUri } : {}),
        public: before.public,
        firstParty: changes.firstParty ?? before.firstParty
      }
      // A name kept as it is stays, even one registered before names had rules.
      const merged = validated(candidate, { checkName: candidate.name !== before.name })
      const allowedGroups = changes.allowedGroups === undefined ? before.allowedGroups : (await groupsById(db, groupIds)).map(({ name }) => name)
      const after: OidcClient = { ...before, ...merged, backchannelLogoutUri: merged.backchannelLogoutUri ?? null, allowedGroups, limitedToGroups: groupIds.length > 0 }
      const changed: (keyof OidcClientChanges)[] = (['name', 'redirectUris', 'postLogoutRedirectUris', 'backchannelLogoutUri', 'firstParty'] as const).filter(
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
            allowedGroups: JSON.stringify(groupIds)
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
      return {
        client_id: row.id,
        client_name: row.name,
        redirect_uris: JSON.parse(row.redirectUris) as string[],
        post_logout_redirect_uris: JSON.parse(row.postLogoutRedirectUris) as string[],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...(row.secretHash === null
          ? { token_endpoint_auth_method: 'none' }
          : { client_secret: row.secretHash, token_endpoint_auth_method: 'client_secret_basic' }),
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
    if (!isWebUrl(uri)) throw new OidcClientError('uri', `Not an http(s) URL without a fragment: ${uri}`, uri)
  }
  const { backchannelLogoutUri, ...rest } = client
  return { ...rest, name: checkName ? normaliseDisplayName(client.name) : client.name, redirectUris, postLogoutRedirectUris, ...(backchannelLogoutUri ? { backchannelLogoutUri } : {}) }
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
    createdAt: row.createdAt
  }
}
