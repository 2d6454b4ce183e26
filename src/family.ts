import { createHubService } from './hub/service.js'
import { type Keyring, openKeyring } from './hub/kernel/tokens/keyring.js'
import type { Service, ServiceContext } from './shared/runtime.js'
import { createTasksService } from './tasks/service.js'

/**
 * The hub and its applications in one process: the hub's signing keys are opened once, and the
 * task manager verifies SSO tokens against them directly instead of fetching the hub's JWKS over
 * HTTP; so are the hub's security events, which the hub still pushes over HTTP to the task manager's
 * endpoint, the path they take between processes. The keyring re-reads its file, so a
 * `keys:rotate` is seen by both. The task manager registers its pages as the hub's first-party
 * OpenID Connect client in the database both share.
 */
export function familyServices(): Service[] {
  let keyring: Promise<Keyring> | undefined
  const sharedKeyring = ({ config }: ServiceContext) =>
    (keyring ??= openKeyring({ signingKey: config.hub.signingKey, dataDir: config.shared.dataDir, now: new Date() }))

  return [
    createHubService({ keyring: sharedKeyring }),
    createTasksService({
      registerWithHub: true,
      hubKeys: async (context) => {
        const keyring = await sharedKeyring(context)
        return (header, token) => keyring.verifier(new Date())(header, token)
      }
    })
  ]
}
