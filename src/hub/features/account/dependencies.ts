import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import type { MailQueue } from '../../kernel/mail/queue.js'
import type { MailTokens } from '../../kernel/mail/mail-tokens.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import type { Sessions } from '../../kernel/sessions/sessions.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import type { OwnAccountRepository } from './repository.js'

/** What the routes of a person's own account need. */
export interface OwnAccountDependencies {
  /** For the transactions that change a credential together with the mail reporting it. */
  db: Kysely<Database>
  ownAccount: OwnAccountRepository
  users: UsersRepository
  sessions: Sessions
  throttle: SignInThrottle
  mailQueue: MailQueue
  mailTokens: MailTokens
  audit: AuditRequest
  /** HUB_PUBLIC_URL: the only origin mailed links point to. */
  publicUrl: string
  now: () => Date
}
