import type { HubFeature } from '../../kernel/feature.js'
import type { BuiltinProvider, Kernel } from '../../kernel/kernel.js'
import { createSecretBox, loadEncryptionKey } from '../../kernel/security/secret-box.js'
import { twoStepDataset } from './export.js'
import { createLoginChallenges } from './login-challenges.js'
import { twoStepSignInPages } from './pages.js'
import { codeProof } from './proof.js'
import { createTwoStepRepository } from './repository.js'
import { twoStepRoutes } from './routes.js'
import { secondFactorRoute } from './second-factor-route.js'
import { createSecondFactorGate } from './second-factor.js'
import { createTwoStep } from './two-step.js'

/**
 * Two-step sign-in (issue 18) for the built-in provider's accounts: the second factor login and
 * reauthentication ask, a code as a proof, its page parts and its record in the export. Its
 * secrets are sealed with HUB_ENCRYPTION_KEY or a key in DATA_DIR.
 */
export function twoStepFeature(kernel: Kernel, builtin: BuiltinProvider): HubFeature {
  const { db, config, users, now } = kernel
  const repository = createTwoStepRepository(db)
  const secretBox = createSecretBox(loadEncryptionKey(config.encryptionKey, kernel.dataDir))
  const twoStep = createTwoStep({ db, repository, secretBox, mailQueue: kernel.mailQueue, publicUrl: config.publicUrl })
  const challenges = createLoginChallenges(db)
  return {
    async routes(app) {
      const { sessions, sessionCookies, audit, throttle } = kernel
      await app.register(secondFactorRoute, {
        sessions,
        sessionCookies,
        audit,
        now,
        idTokens: builtin.idTokens,
        newDeviceNotices: builtin.newDeviceNotices,
        twoStep,
        challenges,
        users,
        throttle
      })
      await app.register(twoStepRoutes, { twoStep, users, audit, now })
    },
    secondFactor: createSecondFactorGate({ twoStep, challenges, users }),
    signInMethod: { pages: twoStepSignInPages(repository), proof: codeProof(twoStep, now) },
    datasets: [twoStepDataset(repository)],
    async accountFacts(userIds) {
      const on = await repository.onAmong(userIds)
      return new Map([...on].map((userId) => [userId, { twoStep: true }]))
    }
  }
}
