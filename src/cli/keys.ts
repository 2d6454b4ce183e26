import { rotateSigningKeys } from '../hub/kernel/tokens/keyring.js'
import type { Config } from '../shared/config.js'
import type { CliIo } from './hub-commands.js'

/** keys:rotate; resolves to the exit code. */
export async function rotateKeys(config: Config, io: CliIo): Promise<number> {
  if (config.hub.signingKey !== undefined) {
    io.err('HUB_SIGNING_KEY is set: keys come from the environment. Put the new key first in its JSON array, keeping the old one until its tokens have expired.')
    return 1
  }
  const kids = await rotateSigningKeys(config.shared.dataDir, new Date())
  io.out(`New signing keys ${kids.join(', ')} (EdDSA, RS256, ES256); the previous ones stay published until their tokens have expired.`)
  return 0
}
