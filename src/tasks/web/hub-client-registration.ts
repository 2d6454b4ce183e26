import type { Kysely } from 'kysely'
import { type NewOidcClient, type OidcClient, OidcClientError, createOidcClients } from '../../hub/features/oidc/clients.js'
import type { TasksConfig } from '../../shared/config.js'
import type { Database } from '../../shared/database/schema.js'
import type { Logger } from '../../shared/logging.js'
import { BACKCHANNEL_LOGOUT_PATH, CALLBACK_PATH, SIGNED_OUT_PATH } from './hub-sign-in.js'

/** The registration `clients:add` would make for the task manager (docs/task-manager.md, "Pages"). */
export function tasksClientRegistration(config: Pick<TasksConfig, 'appId' | 'publicUrl'>): NewOidcClient {
  return {
    id: config.appId,
    name: 'Tasks',
    redirectUris: [`${config.publicUrl}${CALLBACK_PATH}`],
    postLogoutRedirectUris: [`${config.publicUrl}${SIGNED_OUT_PATH}`],
    backchannelLogoutUri: `${config.publicUrl}${BACKCHANNEL_LOGOUT_PATH}`,
    public: true,
    firstParty: true
  }
}

/**
 * With the hub in the same process and database (`npm start`), the task manager registers itself
 * as the hub's first-party client. A registration whose URLs no longer match TASKS_PUBLIC_URL is
 * replaced (its grants and tokens go with it: they were issued for the old address).
 */
export async function registerTasksClient(db: Kysely<Database>, config: Pick<TasksConfig, 'appId' | 'publicUrl'>, logger: Logger): Promise<void> {
  const clients = createOidcClients(db)
  const wanted = tasksClientRegistration(config)
  const current = await clients.find(wanted.id)
  if (current && sameRegistration(current, wanted)) return
  if (current) await clients.remove(wanted.id)
  try {
    await clients.add(wanted, new Date())
    logger.info({ clientId: wanted.id }, 'the task manager is registered with the hub as a first-party client')
  } catch (error) {
    // Another instance starting at the same moment registered it first.
    if (!(error instanceof OidcClientError) || !(await clients.find(wanted.id))) throw error
  }
}

function sameRegistration(current: OidcClient, wanted: NewOidcClient): boolean {
  return (
    current.public === wanted.public &&
    current.firstParty === wanted.firstParty &&
    current.backchannelLogoutUri === (wanted.backchannelLogoutUri ?? null) &&
    JSON.stringify(current.redirectUris) === JSON.stringify(wanted.redirectUris) &&
    JSON.stringify(current.postLogoutRedirectUris) === JSON.stringify(wanted.postLogoutRedirectUris)
  )
}
