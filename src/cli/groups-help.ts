// The groups:* commands' usage, help and options, apart from groups.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

export const GROUPS_USAGE = `  npm run hub -- groups:add --name NAME [--description TEXT]
                                                makes a group (its name is what applications read in groups)
  npm run hub -- groups:list                    lists the groups and how many members each has
  npm run hub -- groups:members:add --group NAME --email EMAIL
                                                puts an account in a group
  npm run hub -- groups:members:remove --group NAME --email EMAIL
                                                takes an account out of a group`

export const GROUPS_HELP = {
  'groups:add': `Usage: npm run hub -- groups:add --name NAME [--description TEXT]

Makes a group, as the console's Groups section does (docs/administration.md, "Groups"). Its name
is what applications read in the groups claim, and what clients:add --groups limits an
application to.

Options:
  --name NAME          1 to 64 letters, digits, single spaces, dots, hyphens or underscores, beginning
                       and ending with a letter or digit; unique whatever its case
  --description TEXT   up to 200 characters`,
  'groups:list': `Usage: npm run hub -- groups:list

Lists the groups by name, with how many members each has and its description. It takes no options.`,
  'groups:members:add': `Usage: npm run hub -- groups:members:add --group NAME --email EMAIL

Puts an account in a group (already in it, nothing changes). The person's activity page says so,
and their applications read the group from their next token.

Options:
  --group NAME    the group's name, whatever its case
  --email EMAIL   the account's address`,
  'groups:members:remove': `Usage: npm run hub -- groups:members:remove --group NAME --email EMAIL

Takes an account out of a group (not in it, nothing changes). An application limited to the group
refuses the person from their next token, refresh or userinfo request.

Options:
  --group NAME    the group's name, whatever its case
  --email EMAIL   the account's address`
} as const

export const GROUPS_OPTIONS = {
  description: { type: 'string' },
  group: { type: 'string' }
} as const
