// The mail:outbox command's usage, help and options, apart from mail-outbox.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

export const DEFAULT_LIMIT = 5
export const MAX_LIMIT = 100

export const MAIL_OUTBOX_USAGE = `mail:outbox prints the newest mails the hub wrote to DATA_DIR/outbox (where mail goes
when HUB_SMTP_URL is not set), newest first: each file's path, recipients, subject and text, so
their links can be followed (each .eml file has a .txt beside it, from which a link can be
copied as it stands). --to keeps the mails to one address; --limit says how many,
1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`

export const MAIL_OUTBOX_HELP = `Usage: npm run hub -- mail:outbox [--to EMAIL] [--limit N]

${MAIL_OUTBOX_USAGE}

Options:
  --to EMAIL   only the mails to this address
  --limit N    how many mails to print, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`
