import type { Config } from '../shared/config.js'
import { createSecurityEventOutbox } from '../hub/kernel/security-events/outbox.js'
import { withDatabase } from './database.js'
import { escapeForTerminal } from './terminal-text.js'

/** `npm run hub -- events:pending`; resolves to the exit code. */
export async function eventsPending(config: Config, io: { out: (line: string) => void }): Promise<number> {
  const pending = await withDatabase(config.shared, (db) => createSecurityEventOutbox(db, []).pending())
  if (pending.length === 0) {
    io.out('No security event is waiting for delivery.')
    return 0
  }
  for (const event of pending) {
    const type = event.eventType.slice(event.eventType.lastIndexOf('/') + 1)
    io.out(
      escapeForTerminal(
        `${event.id}  ${event.applicationId}  ${type}  user ${event.userId}  at ${event.createdAt}  ` +
          `attempts ${event.attempts}  next ${event.nextAttemptAt}  last error: ${event.lastError ?? 'none'}`
      )
    )
  }
  return 0
}
