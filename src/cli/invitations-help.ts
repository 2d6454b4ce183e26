// The invitations:add command's usage, help and options, apart from invitations.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

export const INVITATIONS_USAGE = `  npm run hub -- invitations:add --email EMAIL [--groups NAME,NAME] [--language en|es]
                                                invites the address to make an account; prints the link`

export const INVITATIONS_HELP = {
  'invitations:add': `Usage: npm run hub -- invitations:add --email EMAIL [--groups NAME,NAME] [--language en|es]

Invites the address to make an account, as the console's invitations page does: the running hub
mails it a link to /invite that works once, within 7 days, and this command prints the same link
(share it yourself if mail does not reach them). The invited person chooses a password; their
address counts as confirmed and they join the groups named. Inviting an address again withdraws its
earlier invitation. Refused when the address has an account or HUB_SIGNUP is closed.

Options:
  --email EMAIL        the address invited
  --groups NAME,NAME   groups they join (names, whatever their case; each must exist)
  --language en|es     the mail's language (default en)`
} as const

export const INVITATIONS_OPTIONS = {
  groups: { type: 'string' },
  language: { type: 'string' }
} as const
