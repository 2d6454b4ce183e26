import { createHash } from 'node:crypto'

/**
 * A session as the account API, the pages, the audit trail and the export name it: a digest of
 * its id, never the id itself, which is what the signed auth cookie carries. The handle names the
 * session in URLs (and so in request logs) without putting half of a cookie there.
 */
export function sessionHandle(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url').slice(0, 22)
}
