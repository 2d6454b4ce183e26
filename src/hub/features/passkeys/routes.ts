import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { App } from '../../../shared/http/server.js'
import type { MailQueue } from '../../kernel/mail/queue.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import type { LoginDependencies } from '../../kernel/sessions/sign-in.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import { passkeyAccountRoutes } from './account-routes.js'
import type { PasskeyAssertions } from './assertions.js'
import type { PasskeyChallenges } from './challenges.js'
import type { RelyingParty } from './relying-party.js'
import type { PasskeyRepository } from './repository.js'
import { passkeySignInRoutes } from './sign-in-routes.js'

export interface PasskeyRoutesOptions extends LoginDependencies {
  db: Kysely<Database>
  passkeys: PasskeyRepository
  assertions: PasskeyAssertions
  throttle: SignInThrottle
  users: UsersRepository
  mailQueue: MailQueue
  /** HUB_PUBLIC_URL, for the links of the mail. */
  publicUrl: string
  challenges: PasskeyChallenges
  /** From HUB_PUBLIC_URL: the only origin a ceremony is accepted from. */
  relyingParty: RelyingParty
}

/**
 * Passkeys (issue 18), for the built-in provider's accounts only: an external provider decides
 * how its users sign in, so under it these paths answer 404.
 */
export async function passkeyRoutes(app: App, options: PasskeyRoutesOptions) {
  await app.register(passkeyAccountRoutes, options)
  await app.register(passkeySignInRoutes, options)
}
