import { createOidcClients } from '../src/hub/features/oidc/clients.js'
import { DISCOVERY_PATH } from '../src/hub/features/oidc/paths.js'
import { openDatabase } from '../src/shared/database/connect.js'
import { BENCH_CLIENT, type OidcPeer, signInBrowser } from './oidc-client.js'
import type { RunningService } from './services.js'

/**
 * The hub as the peer: the bench's client registered as `hub clients:add --public --first-party`
 * does (straight in its database), and the bench user's browser, signed in through the hub's API,
 * through one authorization so the provider has its session too.
 */
export async function hearthPeer(hub: RunningService, hubDataDir: string, hubSession: Record<string, string>): Promise<OidcPeer> {
  const { db } = openDatabase({ databaseUrl: undefined, dataDir: hubDataDir })
  try {
    const client = { id: BENCH_CLIENT.id, name: 'Bench client', redirectUris: [BENCH_CLIENT.redirectUri], postLogoutRedirectUris: [], public: true, firstParty: true }
    await createOidcClients(db).add(client, new Date())
  } finally {
    await db.destroy()
  }
  const peer: OidcPeer = { name: 'Hearth', service: hub, discoveryUrl: `${hub.baseUrl}${DISCOVERY_PATH}`, browserCookie: hubSession.cookie ?? '', authorizeParameters: {} }
  return { ...peer, browserCookie: await signInBrowser(peer) }
}
