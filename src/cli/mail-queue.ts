import type { Config } from '../shared/config.js'
import { createMailQueue } from '../hub/kernel/mail/queue.js'
import { withDatabase } from './database.js'
import { escapeForTerminal } from './terminal-text.js'

const DEFAULT_LIMIT = 20
const MAX_LIMIT = 100

export const MAIL_QUEUE_USAGE = `mail:queue lists the mail the hub has not sent yet, oldest first, as the console's queues page
shows it (docs/administration.md, "Queues"): each one's id, recipient, subject, whether it is waiting
or given up, attempts so far, next attempt and the last failure; never its body. --limit says how
many, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}). Mail written to DATA_DIR/outbox has left the queue: see mail:outbox.`

export const MAIL_QUEUE_HELP = `Usage: npm run hub -- mail:queue [--limit N]

${MAIL_QUEUE_USAGE}

Options:
  --limit N    how many mails to list, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`

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
