// The users:* and keys:rotate commands' help, apart from accounts.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

/** Each account command's own help; `npm run hub -- COMMAND --help` prints the one of COMMAND. */
export const ACCOUNT_HELP = {
  'users:create': `Usage: npm run hub -- users:create --email EMAIL [--admin]

Creates an account, reading its password from stdin. It applies the sign-up rules (valid email,
8 to 128 characters, not a common password) and works whatever HUB_SIGNUP says. Pipe the
password in so it stays out of the shell history:
  printf '%s' "$PASSWORD" | npm run hub -- users:create --email ada@example.com

Options:
  --email EMAIL   the account's address
  --admin         makes the account an administrator of the hub (docs/administration.md)`,
  'users:promote': `Usage: npm run hub -- users:promote --email EMAIL

Makes an existing account an administrator of the hub: it opens the console at /admin and the
admin API (docs/administration.md). Recorded on the account's activity.

Options:
  --email EMAIL   the account's address`,
  'users:demote': `Usage: npm run hub -- users:demote --email EMAIL

Makes an administrator a member again; it loses the console at once. The last enabled
administrator cannot be demoted: make another account an administrator first.

Options:
  --email EMAIL   the account's address`,
  'users:disable': `Usage: npm run hub -- users:disable --email EMAIL

Blocks sign-in and ends the account's sessions. A running hub stops accepting them within a few
seconds (it trusts a session it has just read for up to 4 s); SSO tokens already issued to
applications stay valid until they expire (5 minutes). The last enabled administrator cannot be
disabled.

Options:
  --email EMAIL   the account's address`,
  'users:enable': `Usage: npm run hub -- users:enable --email EMAIL

Lets a disabled account sign in again.

Options:
  --email EMAIL   the account's address`,
  'users:delete': `Usage: npm run hub -- users:delete --email EMAIL

Erases the account, as its owner deleting it would: ends every session, erases what the hub holds
about the person but one account.deleted audit record (id and time), mails a confirmation to the
address and sends the applications an account-purged event (docs/account.md, "Deletion"). The
last enabled administrator cannot be deleted.

Options:
  --email EMAIL   the account's address`
} as const

/** keys:rotate's help. */
export const KEYS_HELP = {
  'keys:rotate': `Usage: npm run hub -- keys:rotate

Adds a new SSO signing key in DATA_DIR, which signs from now on; the old one stays published at
/.well-known/jwks.json until every token it signed has expired. A running hub picks it up without
a restart. It takes no options.`
} as const
