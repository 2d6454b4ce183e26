import type { Service, ServiceContext } from '../shared/runtime.js'
import { buildHubApp } from './app.js'
import { printSetupLink } from './features/admin/setup.js'
import { OUTBOX_COMMAND, outboxDirectory } from './kernel/mail/transport.js'
import type { Keyring } from './kernel/tokens/keyring.js'

export interface HubServiceOptions {
  /** The signing keys, when another service of the process verifies with them too. */
  keyring?: (context: ServiceContext) => Promise<Keyring>
}

export function createHubService({ keyring }: HubServiceOptions = {}): Service {
  return {
    name: 'hub',
    port: (config) => config.hub.port,
    build: async (context) => {
      const { config, db, logger } = context
      // PostgreSQL is how several instances share one hub; without Redis each limits on its own.
      if (config.shared.databaseUrl !== undefined && config.hub.redisUrl === undefined) {
        logger.warn('REDIS_URL is not set: each hub instance counts sign-in limits on its own (see "Running several instances" in docs/hub.md)')
      }
      // Said once, so whoever started the hub learns where the mail the pages promise went.
      if (config.hub.smtpUrl === undefined) {
        const outbox = outboxDirectory(config.shared.dataDir)
        logger.info({ outbox }, `HUB_SMTP_URL is not set: mail is not sent but written to ${outbox}; read it, links included, with ${OUTBOX_COMMAND}`)
      }
      const app = await buildHubApp({
        config: config.hub,
        dataDir: config.shared.dataDir,
        db,
        logger,
        ...(keyring ? { keyring: await keyring(context) } : {})
      })
      // While the hub has no administrator, whoever started it gets the one-time link that makes the first (docs/administration.md).
      await printSetupLink({ db, now: new Date(), publicUrl: config.hub.publicUrl, logger })
      return app
    },
    welcome: ({ hub }) => {
      const createsAccounts = hub.identityProvider.kind === 'builtin' && hub.signup === 'open'
      return { url: hub.publicUrl, text: `open ${hub.publicUrl} and ${createsAccounts ? 'create an account' : 'sign in'}` }
    }
  }
}
