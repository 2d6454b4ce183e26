import type { HubFeature } from '../../kernel/feature.js'
import type { BuiltinProvider, Kernel } from '../../kernel/kernel.js'
import { createPasskeyAssertions } from './assertions.js'
import { createPasskeyChallenges } from './challenges.js'
import { passkeysDataset } from './export.js'
import { firstPasskey } from './first-passkey.js'
import { passkeySignInPages } from './pages.js'
import { passkeyProof } from './proof.js'
import { relyingPartyOf } from './relying-party.js'
import { createPasskeyRepository } from './repository.js'
import { passkeyRoutes } from './routes.js'

/**
 * Passkeys: what they keep is exported whichever provider signs people in; signing in with one,
 * adding one, confirming a session with one and making an invited account with one are the
 * built-in provider's (given its `builtin`).
 */
export function passkeysFeature(kernel: Kernel, builtin: BuiltinProvider | undefined): HubFeature {
  const { db, config, now } = kernel
  const passkeys = createPasskeyRepository(db)
  const datasets = [passkeysDataset(passkeys)]
  const accountFacts = async (userIds: readonly string[]) => new Map([...(await passkeys.countsOf(userIds))].map(([userId, count]) => [userId, { passkeys: count }]))
  if (!builtin) return { datasets, accountFacts }
  const assertions = createPasskeyAssertions({ db, passkeys, publicUrl: config.publicUrl, now })
  const challenges = createPasskeyChallenges(db)
  const relyingParty = relyingPartyOf(config.publicUrl)
  return {
    async routes(app) {
      const { sessions, sessionCookies, audit } = kernel
      await app.register(passkeyRoutes, {
        sessions,
        sessionCookies,
        audit,
        now,
        db,
        passkeys,
        assertions,
        idTokens: builtin.idTokens,
        newDeviceNotices: builtin.newDeviceNotices,
        throttle: kernel.throttle,
        users: kernel.users,
        mailQueue: kernel.mailQueue,
        publicUrl: config.publicUrl,
        challenges,
        relyingParty
      })
    },
    signInMethod: { pages: passkeySignInPages(passkeys), proof: passkeyProof(assertions) },
    // An invited person's passkey instead of a password (docs/administration.md, "Invitations").
    firstPasskey: firstPasskey({ passkeys, challenges, relyingParty }),
    datasets,
    accountFacts
  }
}
