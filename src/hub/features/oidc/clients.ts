import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, OidcClientsTable } from '../../../shared/database/schema.js'
import { isUniqueViolation } from '../../../shared/database/unique-violation.js'

/**
 * Client ids appear in URLs, the CLI and consent records, whose purpose `oidc:<id>` must itself be
 * a valid purpose (at most 64 characters of the same alphabet): a short, plain spelling.
 */
export const CLIENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,58}$/
const SECRET_BYTES = 32
const SECRET_HASH_PREFIX = 'sha256:'

export interface NewOidcClient {
  id: string
  name: string
  redirectUris: string[]
  postLogoutRedirectUris: string[]
  backchannelLogoutUri?: string
  public: boolean
  firstParty: boolean
}

export interface OidcClient extends Omit<NewOidcClient, 'backchannelLogoutUri'> {
  backchannelLogoutUri: string | null
  createdAt: string
}

export class OidcClientError extends Error {}

export type OidcClients = ReturnType<typeof createOidcClients>

/**
 * The registered applications. A confidential client's secret is shown once and kept as its
 * SHA-256: it is 256 random bits, so a fast hash is as good as a slow one and costs nothing per
 * token request.
 */
export function createOidcClients(db: Kysely<Database>) {
  const rowOf = (id: string) => db.selectFrom('oidcClients').selectAll().where('id', '=', id).executeTakeFirst()
  return {
    /** Registers a client; resolves to its secret (confidential clients) or null (public ones). */
    async add(client: NewOidcClient, now: Date): Promise<string | null> {
      validate(client)
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
            createdAt: now.toISOString()
          })
          .execute()
      } catch (error) {
        if (isUniqueViolation(error)) throw new OidcClientError(`A client with id ${client.id} already exists`)
        throw error
      }
      return secret
    },

    async list(): Promise<OidcClient[]> {
      return (await db.selectFrom('oidcClients').selectAll().orderBy('id').execute()).map(clientOf)
    },

    async find(id: string): Promise<OidcClient | undefined> {
      const row = await rowOf(id)
      return row && clientOf(row)
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

function validate(client: NewOidcClient): void {
  if (!CLIENT_ID_PATTERN.test(client.id)) throw new OidcClientError('The client id must be 1 to 59 characters: lower-case letters, digits, "_" or "-"')
  if (client.redirectUris.length === 0) throw new OidcClientError('A client needs at least one --redirect-uri')
  for (const uri of [...client.redirectUris, ...client.postLogoutRedirectUris, ...(client.backchannelLogoutUri ? [client.backchannelLogoutUri] : [])]) {
    if (!isWebUrl(uri)) throw new OidcClientError(`Not an http(s) URL without a fragment: ${uri}`)
  }
}

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hash === ''
  } catch {
    return false
  }
}

function clientOf(row: OidcClientsTable): OidcClient {
  return {
    id: row.id,
    name: row.name,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris) as string[],
    backchannelLogoutUri: row.backchannelLogoutUri,
    public: row.secretHash === null,
    firstParty: row.firstParty === 1,
    createdAt: row.createdAt
  }
}
