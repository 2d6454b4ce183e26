import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { Logger } from '../../../shared/logging.js'
import { drainingRound, startRounds } from '../../kernel/background/rounds.js'
import { deleteGrants } from './connected-applications.js'
import type { Provider } from './oidc-provider-module.js'

/** How often provider sessions are checked against the hub sessions they were signed in with. */
export const ENDED_HUB_SESSIONS_INTERVAL_MS = 2_000
const BATCH_SIZE = 20

/** A provider session whose hub session has ended, as stored (oidc-provider's Session payload). */
interface OrphanedProviderSession {
  id: string
  hubSessionId: string | null
  payload: string
}

interface SessionPayload {
  accountId: string
  authorizations?: Record<string, { sid?: string; grantId?: string; persistsLogout?: boolean }>
}

export interface EndedHubSessionsOptions {
  db: Kysely<Database>
  /** The provider of the hub's current keys, which signs the logout tokens. */
  provider: () => Promise<Provider>
  logger: Logger
  now: () => Date
}

/**
 * Ends, now and every interval after, each provider session whose hub session has ended, by
 * whichever path (signing out, ending it from the account, "sign out everywhere else", a password
 * reset, disabling or deleting the account, on this instance, another or the command line): as
 * RP-initiated logout does, its grants are revoked (but those the application was given
 * `offline_access` in) and every application that took part in it and registered a back-channel
 * logout URI is sent a logout token. Answers the stop function.
 */
export function startEndingProviderSessionsOfEndedHubSessions(options: EndedHubSessionsOptions): () => Promise<void> {
  return startRounds(endedHubSessionsRound(options), ENDED_HUB_SESSIONS_INTERVAL_MS)
}

/** One round: never throws; a database outage is logged when it starts and when it ends. */
export function endedHubSessionsRound({ db, provider, logger, now }: EndedHubSessionsOptions): () => Promise<void> {
  const claim = (): Promise<OrphanedProviderSession[]> => {
    const at = now().toISOString()
    return db
      .selectFrom('oidcProviderRecords as record')
      .leftJoin('sessions', (join) => join.onRef('sessions.id', '=', 'record.hubSessionId').on('sessions.expiresAt', '>', at))
      .select(['record.id', 'record.hubSessionId', 'record.payload'])
      .where('record.model', '=', 'Session')
      .where('record.accountId', 'is not', null)
      .where('record.expiresAt', '>', at)
      .where('sessions.id', 'is', null)
      .limit(BATCH_SIZE)
      .execute()
  }

  const end = async (orphan: OrphanedProviderSession): Promise<void> => {
    // Deleting it is the claim: of several instances, the one that deletes it sends the logouts.
    // Stamped meanwhile with a live hub session (the person signed in again), it is left alone.
    const deleted = await db
      .deleteFrom('oidcProviderRecords')
      .where('model', '=', 'Session')
      .where('id', '=', orphan.id)
      .where('hubSessionId', orphan.hubSessionId === null ? 'is' : '=', orphan.hubSessionId)
      .executeTakeFirst()
    if (Number(deleted.numDeletedRows) === 0) return
    const { accountId, authorizations = {} } = JSON.parse(orphan.payload) as SessionPayload
    const revokedGrants = Object.values(authorizations).flatMap(({ grantId, persistsLogout }) => (grantId && !persistsLogout ? [grantId] : []))
    if (revokedGrants.length > 0) await deleteGrants(db, revokedGrants)
    await Promise.all(Object.entries(authorizations).map(([clientId, { sid }]) => logOut(clientId, accountId, sid)))
  }

  /** Best effort: oidc-provider gives up after 2.5 s; an application down meanwhile is not told again. */
  const logOut = async (clientId: string, accountId: string, sid: string | undefined): Promise<void> => {
    const about = { clientId }
    try {
      const client = await (await provider()).Client.find(clientId)
      if (!client?.backchannelLogoutUri) return
      await client.backchannelLogout(accountId, sid)
      logger.info(about, 'back-channel logout delivered')
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error
      logger.warn({ ...about, reason: cause instanceof Error ? cause.message : String(cause) }, 'back-channel logout not delivered')
    }
  }

  // A failure to end one is the database's: the round stops and the next one takes it again.
  return drainingRound({ claim, batchSize: BATCH_SIZE, deliver: end, logger, queueName: 'provider sessions of ended hub sessions' })
}
