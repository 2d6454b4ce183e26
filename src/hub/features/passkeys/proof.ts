import type { ReauthenticationProof } from '../../kernel/sessions/reauthenticate.js'
import type { PasskeyAssertions } from './assertions.js'
import { AuthenticationResponse, PASSKEY_NOT_ACCEPTED } from './schemas.js'

/**
 * A passkey as a proof for POST /api/auth/reauthenticate (`{passkey}`): an assertion over a
 * challenge from POST /api/auth/passkey/options, by one of this account's passkeys; 401 otherwise,
 * counted as a login.
 */
export function passkeyProof(assertions: PasskeyAssertions): ReauthenticationProof<typeof AuthenticationResponse> {
  return {
    field: 'passkey',
    schema: AuthenticationResponse,
    method: 'passkey',
    named: 'a passkey',
    async check(passkey, { user, counted }) {
      await counted(() => assertions.proves(user.id, passkey), PASSKEY_NOT_ACCEPTED)
    }
  }
}
