import type { Kysely } from 'kysely'
import type { Adapter, AdapterPayload } from 'oidc-provider'
import { failureForLog } from '../../../shared/database/availability.js'
import { type Param, prepareQuery } from '../../../shared/database/prepared-query.js'
import type { Database, OidcProviderRecordsTable } from '../../../shared/database/schema.js'
import type { Logger } from '../../../shared/logging.js'
import { PRUNING_INTERVAL_MS } from '../../kernel/audit/pruning.js'
import { startRounds } from '../../kernel/background/rounds.js'
import type { ActiveSession } from '../../kernel/sessions/sessions.js'
import type { OidcClients } from './clients.js'

/** The hub session of the request the provider is answering, if any. */
export type HubSessionOfCurrentRequest = () => ActiveSession | null

/**
 * oidc-provider's storage on our database: one `oidc_provider_records` row per model instance
 * (codes, tokens, grants, sessions, interactions), so every hub instance sees the same ones.
 * Clients are read from `oidc_clients` instead, where `clients:add` writes them. A provider
 * session is stamped with the hub session of the request that saves it, when it is the same
 * person's, so that the session ends with it (ended-hub-sessions.ts).
 */
export function providerAdapterFactory(
  db: Kysely<Database>,
  clients: OidcClients,
  now: () => Date,
  hubSessionOf: HubSessionOfCurrentRequest,
  /** The algorithm a client's registered one signs with here (see provider.ts). */
  signingAlgorithmOf: (registered: string) => string = (registered) => registered
): (model: string) => Adapter {
  return (model) => (model === 'Client' ? clientAdapter(clients, signingAlgorithmOf) : recordAdapter(db, model, now, model === 'Session' ? hubSessionOf : () => null))
}

/** A provider record's row as saved: consumed only later, and stamped with a hub session by some saves alone. */
type SavedRecord = Omit<OidcProviderRecordsTable, 'consumedAt' | 'hubSessionId'> & { hubSessionId?: string }

function recordAdapter(db: Kysely<Database>, model: string, now: () => Date, hubSessionOf: HubSessionOfCurrentRequest): Adapter {
  // Every token, code, grant and session the provider reads goes through these: prepared once per
  // model, not built and compiled by Kysely at each read (docs/performance.md, issue 32).
  const recordBy = (column: 'id' | 'uid' | 'userCode') =>
    prepareQuery(db, (param: Param<{ model: string; value: string }>) =>
      db.selectFrom('oidcProviderRecords').select(['payload', 'expiresAt', 'consumedAt']).where('model', '=', param('model')).where(column, '=', param('value'))
    )
  const byId = recordBy('id')
  const byUid = recordBy('uid')
  const byUserCode = recordBy('userCode')
  // Each code and refresh token is consumed as it is used.
  const consumption = prepareQuery(db, (param: Param<{ model: string; id: string; at: string }>) =>
    db.updateTable('oidcProviderRecords').set({ consumedAt: param('at') }).where('model', '=', param('model')).where('id', '=', param('id'))
  )
  // Every code, token, grant and session the provider issues or changes is saved through one of
  // these, the second stamping it with the saving request's hub session.
  const savingRecord = (withHubSession: boolean) =>
    prepareQuery(db, (param: Param<SavedRecord>) => {
      const row = {
        payload: param('payload'),
        grantId: param('grantId'),
        uid: param('uid'),
        userCode: param('userCode'),
        accountId: param('accountId'),
        clientId: param('clientId'),
        expiresAt: param('expiresAt'),
        ...(withHubSession ? { hubSessionId: param('hubSessionId') } : {})
      }
      return db
        .insertInto('oidcProviderRecords')
        .values({ model: param('model'), id: param('id'), ...row, consumedAt: null })
        .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(row))
    })
  const saving = savingRecord(false)
  const savingWithHubSession = savingRecord(true)
  const live = async (query: typeof byId, value: string): Promise<AdapterPayload | undefined> => {
    const row = await query.first({ model, value })
    if (!row || (row.expiresAt !== null && row.expiresAt <= now().toISOString())) return undefined
    const payload = JSON.parse(row.payload) as AdapterPayload
    // oidc-provider refuses a consumed code or rotated refresh token by this field.
    return row.consumedAt === null ? payload : { ...payload, consumed: Math.floor(Date.parse(row.consumedAt) / 1000) }
  }
  return {
    async upsert(id, payload, expiresIn) {
      const hubSession = hubSessionOf()
      const row = {
        model,
        id,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        accountId: payload.accountId ?? null,
        clientId: payload.clientId ?? null,
        expiresAt: typeof expiresIn === 'number' ? new Date(now().getTime() + expiresIn * 1000).toISOString() : null
      }
      // Saved without its person's hub session (someone else's, or none), it keeps the one it had.
      if (hubSession !== null && hubSession.userId === payload.accountId) await savingWithHubSession.all({ ...row, hubSessionId: hubSession.id })
      else await saving.all(row)
    },
    find: (id) => live(byId, id),
    findByUid: (uid) => live(byUid, uid),
    findByUserCode: (userCode) => live(byUserCode, userCode),
    async consume(id) {
      await consumption.all({ model, id, at: now().toISOString() })
    },
    async destroy(id) {
      await db.deleteFrom('oidcProviderRecords').where('model', '=', model).where('id', '=', id).execute()
    },
    async revokeByGrantId(grantId) {
      // Every model of the grant, not only this one: the grant's tokens end together.
      await db.deleteFrom('oidcProviderRecords').where('grantId', '=', grantId).execute()
    }
  }
}

function clientAdapter(clients: OidcClients, signingAlgorithmOf: (registered: string) => string): Adapter {
  const readOnly = async () => {
    throw new Error('Clients are registered with `npm run hub -- clients:add`, not through the provider')
  }
  return {
    async find(id) {
      const metadata = await clients.metadataOf(id)
      if (!metadata) return undefined
      return { ...metadata, id_token_signed_response_alg: signingAlgorithmOf(String(metadata.id_token_signed_response_alg)) }
    },
    upsert: readOnly,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: async () => undefined
  }
}

/** Drops expired records (oidc-provider no longer reads them) now and hourly; returns the stop function for shutdown. */
export function scheduleProviderRecordPruning(db: Kysely<Database>, now: () => Date, logger: Logger): () => Promise<void> {
  const prune = async () => {
    await db
      .deleteFrom('oidcProviderRecords')
      .where('expiresAt', '<=', now().toISOString())
      .execute()
      .catch((error: unknown) => logger.error(failureForLog(error), 'pruning expired OpenID Connect records failed'))
  }
  return startRounds(prune, PRUNING_INTERVAL_MS)
}
