// The mail:queue command's usage, help and options, apart from mail-queue.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

export const MAIL_QUEUE_USAGE = `mail:queue lists the mail the hub has not sent yet, oldest first, as the console's queues page
shows it (docs/administration.md, "Queues"): each one's id, recipient, subject, whether it is waiting
or given up, attempts so far, next attempt and the last failure; never its body. --limit says how
many, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}). Mail written to DATA_DIR/outbox has left the queue: see mail:outbox.`

export const MAIL_QUEUE_HELP = `Usage: npm run hub -- mail:queue [--limit N]

${MAIL_QUEUE_USAGE}

Options:
  --limit N    how many mails to list, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`
