// The events:pending command's usage, help and options, apart from security-events-pending.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

export const EVENTS_PENDING_USAGE = `events:pending lists the security events the applications have not yet accepted, oldest first:
each one's id (its jti), application, event type, subject (user id), when it happened, attempts so
far, next attempt and the last failure. The hub retries each until the application answers 202.`

export const EVENTS_PENDING_HELP = `Usage: npm run hub -- events:pending

${EVENTS_PENDING_USAGE}

It takes no options.`
