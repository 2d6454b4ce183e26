// The csp:top command's usage, help and options, apart from csp-top.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 1000
/** Table cells are cut to this width so a long URI does not push the table off the screen. */
export const CELL_WIDTH = 60

export const CSP_TOP_USAGE = `csp:top lists the most frequent CSP violations reported to the hub, most reported first.
--limit says how many, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); cells longer than ${CELL_WIDTH} characters
are cut and end with "…". Characters a terminal would not show as themselves (controls, bidi
and invisible formatting characters) are printed as escapes such as \\u{202e}, and \\ as \\\\.`

export const CSP_TOP_HELP = `Usage: npm run hub -- csp:top [--limit N]

${CSP_TOP_USAGE}

Options:
  --limit N   how many violations to list, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`
