import type { Config } from '../shared/config.js'
import { createMailQueue } from '../hub/kernel/mail/queue.js'
import { withDatabase } from './database.js'
import { escapeForTerminal } from './terminal-text.js'
import { DEFAULT_LIMIT, MAX_LIMIT } from './mail-queue-help.js'

/** `npm run hub -- mail:queue [--limit N]`: the queue's `unsent`, which the console reads too; resolves to the exit code (2 for a bad --limit). */
export async function mailQueueCommand(config: Config, limitOption: string | undefined, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const limit = limitOption === undefined ? DEFAULT_LIMIT : Number(limitOption)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    io.err(`--limit must be an integer from 1 to ${MAX_LIMIT}.`)
    return 2
  }
  const { mails, total } = await withDatabase(config.shared, (db) => createMailQueue(db).unsent(limit))
  if (mails.length === 0) {
    io.out('No mail is waiting: everything queued was sent.')
    return 0
  }
  for (const mail of mails) {
    io.out(
      escapeForTerminal(
        `${mail.id}  to ${mail.recipient}  "${mail.subject}"  ${mail.status}  attempts ${mail.attempts}  ` +
          `next ${mail.status === 'failed' ? 'none' : mail.nextAttemptAt}  last error: ${mail.lastError ?? 'none'}`
      )
    )
  }
  if (total > mails.length) io.out(`The ${mails.length} oldest of ${total} are listed.`)
  return 0
}
